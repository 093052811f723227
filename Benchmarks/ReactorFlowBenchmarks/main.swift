import Foundation

// ReactorFlowBenchmarks: run in release, `swift run -c release ReactorFlowBenchmarks [--json] [--filter NAME]
// [--iterations N]`. Every scenario runs a warm-up and then `runs` measured runs; min and median are reported in
// nanoseconds per operation (bytes for the memory scenarios).

struct Scenario {
    let name: String
    let operations: Int
    let unit: String
    let run: (Int) -> UInt64
}

struct Result: Codable {
    let name: String
    let unit: String
    let min: Double
    let median: Double
    let runs: Int
    /// Every operation the scenario ran, its warm-up included: what `Benchmarks/instructions` divides by. Absent for
    /// the memory figures.
    var operationsRun: Int? = nil
}

struct Report: Codable {
    let scenarios: [Result]
    let floor: [String: Double]
    /// Every operation each floor ran, its warm-up included (see `Result.operationsRun`).
    let floorOperationsRun: [String: Int]
    let multipleOfFloor: [String: Double]
    let screens: [ScreenResult]
    let targets: [String: Double]
}

/// A realistic screen and its reference, measured in alternation: medians of each, and of the pairs' ratios.
struct ScreenResult: Codable {
    let name: String
    let unit: String
    let median: Double
    let referenceMedian: Double
    let multipleOfReference: Double
}

let usage = "usage: ReactorFlowBenchmarks [--json] [--filter NAME] [--iterations N]"
var json = false
var filter: String?
var scale = 1.0
var runs = 7
var arguments = CommandLine.arguments.dropFirst()
while let argument = arguments.popFirst() {
    switch argument {
    case "--json": json = true
    case "--filter":
        guard let value = arguments.popFirst() else { print(usage); exit(2) }
        filter = value
    case "--iterations":
        guard let value = arguments.popFirst(), let iterations = Int(value), iterations > 0 else { print(usage); exit(2) }
        scale = min(1, Double(iterations) / 1_000_000)
        runs = max(5, min(runs, iterations))
    case "--help", "-h":
        print(usage)
        exit(0)
    default:
        FileHandle.standardError.write(Data("unknown option \(argument)\n\(usage)\n".utf8))
        exit(2)
    }
}

// glibc takes shortcuts while a process has only ever had one thread: its mutexes and its allocator then skip their
// atomic instructions. An app always has several threads, and `contended` starts two, after which every later
// scenario (the floors) would run slower than the earlier ones. So a thread is started and finished
// first: every figure is then measured the way an app runs it, and the ratios between them are fair.
let firstThread = DispatchSemaphore(value: 0)
Thread.detachNewThread { firstThread.signal() }
firstThread.wait()

@MainActor func scaled(_ count: Int) -> Int { max(10, Int(Double(count) * scale)) }

let scenarios: [Scenario] = [
    Scenario(name: "counter", operations: scaled(1_000_000), unit: "ns/action", run: Scenarios.counter),
    Scenario(name: "concat3", operations: scaled(300_000), unit: "ns/action", run: Scenarios.concat3),
    Scenario(name: "mutate-stream", operations: scaled(100_000), unit: "ns/action", run: Scenarios.mutateStream),
    Scenario(name: "pulse", operations: scaled(300_000), unit: "ns/action", run: Scenarios.pulse),
    Scenario(name: "wide-state", operations: scaled(300_000), unit: "ns/action", run: Scenarios.wideState),
    Scenario(name: "state-observe-on", operations: scaled(300_000), unit: "ns/action", run: Scenarios.stateObserveOn),
    Scenario(name: "fanout-1", operations: scaled(1_000_000), unit: "ns/event", run: Scenarios.fanout(subscribers: 1)),
    Scenario(name: "fanout-10", operations: scaled(300_000), unit: "ns/event", run: Scenarios.fanout(subscribers: 10)),
    Scenario(name: "fanout-100", operations: scaled(30_000), unit: "ns/event", run: Scenarios.fanout(subscribers: 100)),
    Scenario(name: "operators-chain", operations: scaled(1_000_000), unit: "ns/event", run: Scenarios.operatorChain),
    Scenario(name: "operators-flatMap-just", operations: scaled(300_000), unit: "ns/event", run: Scenarios.flatMapJust),
    Scenario(name: "operators-flatMapLatest", operations: scaled(300_000), unit: "ns/event", run: Scenarios.flatMapLatest),
    Scenario(name: "operators-distinct-at", operations: scaled(1_000_000), unit: "ns/event", run: Scenarios.distinctAtKeyPath),
    Scenario(name: "contended", operations: scaled(1_000_000), unit: "ns/action", run: Scenarios.contended),
    Scenario(name: "create-reactor", operations: scaled(100_000), unit: "ns/reactor", run: Scenarios.createReactor),
]

var results: [Result] = []

if filter.map({ "memory".contains($0) }) ?? true {
    let reactorCount = scaled(100_000)
    let perReactor = memoryPerReactor(count: reactorCount)
    let perSubscription = memoryPerSubscription(count: scaled(100_000))
    results.append(Result(name: "memory-per-reactor", unit: "bytes", min: perReactor.resident, median: perReactor.resident, runs: 1))
    results.append(Result(name: "memory-per-reactor-heap", unit: "bytes", min: perReactor.heap, median: perReactor.heap, runs: 1))
    results.append(Result(name: "memory-per-subscription", unit: "bytes", min: perSubscription, median: perSubscription, runs: 1))
    if !json {
        print(String(format: "%-26@ %9.0f bytes resident, %.0f bytes of heap (reactor + one state subscription, %d reactors)", "memory-per-reactor" as NSString, perReactor.resident, perReactor.heap, reactorCount))
        print(String(format: "%-26@ %9.0f bytes of heap (idle subscription to a subject)", "memory-per-subscription" as NSString, perSubscription))
    }
}

// A filter that names a scenario exactly selects that one alone (`fanout-1`, not `fanout-10` and `fanout-100`).
let namesOneScenario = filter.map { name in scenarios.contains { $0.name == name } } ?? false
for scenario in scenarios where filter.map({ namesOneScenario ? scenario.name == $0 : scenario.name.contains($0) }) ?? true {
    let warmUp = max(10, scenario.operations / 10)
    _ = scenario.run(warmUp)
    var samples: [Double] = []
    for _ in 0..<runs {
        samples.append(Double(scenario.run(scenario.operations)) / Double(scenario.operations))
    }
    samples.sort()
    let result = Result(name: scenario.name, unit: scenario.unit, min: samples[0], median: samples[samples.count / 2], runs: runs,
                        operationsRun: warmUp + runs * scenario.operations)
    results.append(result)
    if !json {
        print(String(format: "%-26@ min %9.1f   median %9.1f  %@", scenario.name as NSString, result.min, result.median, scenario.unit as NSString))
    }
}

// The floors run with every scenario, or alone with `--filter floor`, or one alone with a filter that names it
// exactly; not with another filter, so that counting a scenario's allocations (`valgrind --tool=dhat … --filter
// counter`) counts only the scenario's.
var floor: [String: Double] = [:]
var floorOperationsRun: [String: Int] = [:]
let floors: [(String, (Int) -> UInt64)] = [
    ("reduce-loop", Scenarios.floorReduceLoop),
    ("reduce-and-subscriber", Scenarios.floorReduceAndSubscriber),
    ("serialized-store", Scenarios.floorSerializedStore(boxed: false)),
    ("serialized-store-boxed", Scenarios.floorSerializedStore(boxed: true)),
    ("serialized-store-boxed-weak-owner", Scenarios.floorSerializedStore(boxed: true, weakOwner: true)),
    ("serialized-store-concat3-weak-owner", Scenarios.floorSerializedStoreConcat3),
    ("serialized-store-contended-weak-owner", Scenarios.floorSerializedStoreContended),
    ("serialized-store-pulse-weak-owner", Scenarios.floorSerializedStorePulse(serialization: .none)),
    ("serialized-store-pulse-locked-subscribers", Scenarios.floorSerializedStorePulse(serialization: .lock)),
    ("serialized-store-pulse-two-cas-subscribers", Scenarios.floorSerializedStorePulse(serialization: .compareAndSwapTwice)),
    ("serialized-store-pulse-one-cas-subscribers", Scenarios.floorSerializedStorePulse(serialization: .compareAndSwapThenStore)),
    ("serialized-store-pulse-locked-closures", Scenarios.floorSerializedStorePulseThroughClosures),
]
let namesOneFloor = filter.map { name in floors.contains { $0.0 == name } } ?? false
for (name, run) in floors where filter.map({ namesOneFloor ? name == $0 : "floor".contains($0) }) ?? true {
    let operations = scaled(10_000_000)
    _ = run(operations / 10)
    var samples = (0..<runs).map { _ in Double(run(operations)) / Double(operations) }
    samples.sort()
    floor[name] = samples[samples.count / 2]
    floorOperationsRun[name] = operations / 10 + runs * operations
    if !json { print(String(format: "floor %-34@ median %9.2f ns/op", name as NSString, samples[samples.count / 2])) }
}

// Each per-action scenario as a multiple of the floor that does its work under the same rules (B9's weak owner for
// all four, A2 and A3 per subscriber for `pulse`). This machine's speed drifts by up to 2× within minutes, so the two
// are measured in alternation — scenario, floor, scenario, floor… — and the multiple is the median of the pairs'
// ratios: a drift then moves both sides of a pair together. Both sides of a pair run the scenario's operations, so
// that they last about as long and see the same moment of the machine, and there are three times as many pairs as
// a scenario has runs, short ones, so that their median moves little from one run of the benchmark to the next.
// Only a full run has them. `contended`'s floor is a reference rather than a lower bound: under two senders the cost
// also depends on how the work batches.
// The last pair is not a contract multiple: `pulse` against its floor written as the user's closures, which shows
// how much of the multiple calling them accounts for.
let floorPairs = [
    (multiple: "counter", scenario: "counter", floor: "serialized-store-boxed-weak-owner"),
    ("concat3", "concat3", "serialized-store-concat3-weak-owner"),
    ("pulse", "pulse", "serialized-store-pulse-locked-subscribers"),
    ("contended", "contended", "serialized-store-contended-weak-owner"),
    ("pulse-against-closures", "pulse", "serialized-store-pulse-locked-closures"),
]
var multipleOfFloor: [String: Double] = [:]
for (multipleName, scenarioName, floorName) in floorPairs where filter.map({ "floor".contains($0) }) ?? true {
    guard let scenario = scenarios.first(where: { $0.name == scenarioName }),
          let floorRun = floors.first(where: { $0.0 == floorName })?.1 else { continue }
    var ratios: [Double] = []
    for _ in 0..<(3 * runs) {
        let perAction = Double(scenario.run(scenario.operations)) / Double(scenario.operations)
        let perFloor = Double(floorRun(scenario.operations)) / Double(scenario.operations)
        ratios.append(perAction / perFloor)
    }
    ratios.sort()
    let multiple = ratios[ratios.count / 2]
    multipleOfFloor[multipleName] = multiple
    if !json { print(String(format: "%-26@ median %5.2f × floor %@ (%d alternating pairs)", multipleName as NSString, multiple, floorName as NSString, ratios.count)) }
}

// Realistic screens, each next to its reference (the same work without ReactorFlow), in alternating pairs.
let screenPairs: [(name: String, unit: String, operations: Int, run: (Int) -> UInt64, reference: (Int) -> UInt64)] = [
    ("list-screen", "ns/action", scaled(100_000), Screens.listScreen, Screens.listScreenReference),
    ("search-screen", "ns/keystroke", scaled(100_000), Screens.searchScreen, Screens.searchScreenReference),
    ("app-wide-event", "ns/event (1,000 reactors)", scaled(3_000), Screens.appWideEvent, Screens.appWideEventReference),
]
var screens: [ScreenResult] = []
for pair in screenPairs where filter.map({ pair.name.contains($0) || "screens".contains($0) }) ?? true {
    _ = pair.run(max(10, pair.operations / 10))
    _ = pair.reference(max(10, pair.operations / 10))
    var measured: [Double] = [], references: [Double] = [], ratios: [Double] = []
    for _ in 0..<runs {
        let perOperation = Double(pair.run(pair.operations)) / Double(pair.operations)
        let perReference = Double(pair.reference(pair.operations)) / Double(pair.operations)
        measured.append(perOperation)
        references.append(perReference)
        ratios.append(perOperation / perReference)
    }
    let median = { (values: [Double]) in values.sorted()[values.count / 2] }
    let result = ScreenResult(name: pair.name, unit: pair.unit, median: median(measured), referenceMedian: median(references),
                              multipleOfReference: median(ratios))
    screens.append(result)
    if !json {
        print(String(format: "%-26@ median %9.1f  reference %9.1f  %5.2f × reference  %@", pair.name as NSString,
                     result.median, result.referenceMedian, result.multipleOfReference, pair.unit as NSString))
    }
}

if json {
    let targets = ["counter": 100.0, "concat3": 250, "pulse": 400, "contended": 300, "create-reactor": 2000, "memory-per-reactor": 1024]
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
    let data = try encoder.encode(Report(scenarios: results, floor: floor, floorOperationsRun: floorOperationsRun, multipleOfFloor: multipleOfFloor, screens: screens, targets: targets))
    print(String(decoding: data, as: UTF8.self))
}
