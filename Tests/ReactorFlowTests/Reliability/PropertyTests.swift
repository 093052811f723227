import Foundation
import ReactorFlow
import ReactorFlowTesting
import Testing

/// SplitMix64: small, seeded, and the same on every machine, so a failing seed replays exactly.
struct SeededRandom {
    private var state: UInt64
    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    mutating func int(_ range: ClosedRange<Int>) -> Int {
        range.lowerBound + Int(next() % UInt64(range.count))
    }

    mutating func chance(_ percent: Int) -> Bool { int(0...99) < percent }
}

typealias Script = [Recorded<Event<Int>>]

/// A random script: elements at increasing times (all ≡ `phase` mod 10, after subscription at 200), maybe ending
/// with an error or a completion.
func randomScript(_ random: inout SeededRandom, phase: Int = 0) -> Script {
    var time = 200
    var script: Script = []
    for _ in 0..<random.int(0...12) {
        time += 10 * random.int(1...4)
        script.append(.next(time + phase, random.int(0...5)))
    }
    time += 10 * random.int(1...4)
    switch random.int(0...2) {
    case 0: script.append(.completed(time + phase))
    case 1: script.append(.error(time + phase, TestError("e\(time)")))
    default: break
    }
    return script
}

/// Reference models: obviously correct, written over arrays of recorded events.
enum Model {
    /// What a subscriber sees of `output` when it disposes at `disposeTime`.
    static func cut(_ output: Script, at disposeTime: Int) -> Script {
        var result: Script = []
        for event in output where event.time <= disposeTime {
            result.append(event)
            if event.value.isStopEvent { break }
        }
        return result
    }

    static func stateless(_ input: Script, _ transform: (Int) -> Int?) -> Script {
        input.compactMap { recorded in
            guard case .next(let value) = recorded.value else { return recorded }
            return transform(value).map { .next(recorded.time, $0) }
        }
    }

    static func scan(_ input: Script) -> Script {
        var sum = 0
        return input.map { recorded in
            guard case .next(let value) = recorded.value else { return recorded }
            sum += value
            return .next(recorded.time, sum)
        }
    }

    static func take(_ input: Script, _ count: Int) -> Script {
        if count == 0 { return [.completed(200)] }
        var result: Script = []
        for recorded in input {
            result.append(recorded)
            if result.count == count, case .next = recorded.value { return result + [.completed(recorded.time)] }
        }
        return result
    }

    static func skip(_ input: Script, _ count: Int) -> Script {
        var skipped = 0
        return input.filter { recorded in
            guard case .next = recorded.value else { return true }
            skipped += 1
            return skipped > count
        }
    }

    static func distinct(_ input: Script) -> Script {
        var last: Int?
        return input.filter { recorded in
            guard case .next(let value) = recorded.value else { return true }
            defer { last = value }
            return value != last
        }
    }

    static func takeWhile(_ input: Script, _ predicate: (Int) -> Bool) -> Script {
        var result: Script = []
        for recorded in input {
            if case .next(let value) = recorded.value, !predicate(value) { return result + [.completed(recorded.time)] }
            result.append(recorded)
        }
        return result
    }

    static func delay(_ input: Script, by delay: Int) -> Script {
        var result: Script = []
        for recorded in input {
            if case .error = recorded.value {
                result = result.filter { $0.time <= recorded.time }
                result.append(recorded)
                return result
            }
            result.append(Recorded(time: recorded.time + delay, value: recorded.value))
        }
        return result.sorted { $0.time < $1.time }
    }

    static func debounce(_ input: Script, by delay: Int) -> Script {
        var result: Script = []
        for (index, recorded) in input.enumerated() {
            switch recorded.value {
            case .next(let value):
                let due = recorded.time + delay
                let following = input.dropFirst(index + 1).first
                if let following, following.time <= due {
                    if case .completed = following.value { result.append(.next(following.time, value)) }
                } else {
                    result.append(.next(due, value))
                }
            default:
                result.append(recorded)
            }
        }
        return result.sorted { $0.time < $1.time }
    }

    static func merge(_ a: Script, _ b: Script) -> Script {
        var result: Script = []
        var completed = 0
        for recorded in (a + b).sorted(by: { $0.time < $1.time }) {
            switch recorded.value {
            case .next: result.append(recorded)
            case .error: return result + [recorded]
            case .completed:
                completed += 1
                if completed == 2 { return result + [recorded] }
            }
        }
        return result
    }

    static func combineLatest(_ a: Script, _ b: Script) -> Script {
        var result: Script = []
        var latest: [Int?] = [nil, nil]
        var done = [false, false]
        let tagged = (a.map { (0, $0) } + b.map { (1, $0) }).sorted { $0.1.time < $1.1.time }
        for (source, recorded) in tagged {
            switch recorded.value {
            case .next(let value):
                latest[source] = value
                if let x = latest[0], let y = latest[1] {
                    result.append(.next(recorded.time, x + y))
                } else if done[1 - source] {
                    return result + [.completed(recorded.time)] // the other ended without a value: no row can come
                }
            case .error:
                return result + [recorded]
            case .completed:
                done[source] = true
                if done[0] && done[1] { return result + [recorded] }
            }
        }
        return result
    }
}

@Suite("Property-based operator tests")
struct PropertyTests {
    static let scriptsPerOperator = 1_000

    /// Runs `scriptsPerOperator` random scripts through `apply` and compares each with `model`; the seed of a failing
    /// script is in the failure message. With `cold`, each source replays its script per subscription (for `retry`).
    func check(_ name: String, seed: UInt64,
               apply: @escaping (TestScheduler, [TestableObservable<Int>]) -> Observable<Int>,
               model: ([Script]) -> Script, sources: Int = 1, cold: Bool = false) {
        var failures = 0
        for index in 0..<Self.scriptsPerOperator {
            let scriptSeed = seed &+ UInt64(index)
            var random = SeededRandom(seed: scriptSeed)
            let scripts = (0..<sources).map { randomScript(&random, phase: $0 * 5) }
            let disposeTime = 200 + 10 * random.int(1...60) + 3
            // The models know nothing of RxTest's processing delay: work scheduled for now runs now.
            let scheduler = TestScheduler(resolution: .milliseconds(1), simulateProcessingDelay: false)
            // A cold source replays its script relative to each subscription, the first one being at 200.
            let observables = scripts.map { script in
                cold ? scheduler.createColdObservable(script.map { Recorded(time: $0.time - 200, value: $0.value) })
                     : scheduler.createHotObservable(script)
            }
            let results = scheduler.start(disposed: disposeTime) { apply(scheduler, observables) }
            let expected = Model.cut(model(scripts), at: disposeTime)
            if results.events != expected {
                failures += 1
                if failures <= 3 {
                    Issue.record("\(name): seed \(scriptSeed) differs\n input: \(scripts)\n dispose: \(disposeTime)\n expected: \(expected)\n got: \(results.events)")
                }
            }
            // Nothing is left scheduled or subscribed once the subscription is disposed.
            for observable in observables where observable.subscriptions.contains(where: { $0.unsubscribe == .max }) {
                Issue.record("\(name): seed \(scriptSeed) left a source subscribed")
            }
        }
        print("Property: \(name): \(Self.scriptsPerOperator) random scripts (seeds \(seed)...\(seed + UInt64(Self.scriptsPerOperator) - 1)), \(failures) differ from the model")
        #expect(failures == 0, "\(name): \(failures) of \(Self.scriptsPerOperator) scripts differ from the model")
    }

    @Test func map() { check("map", seed: 1_000, apply: { $1[0].map { $0 * 3 } }, model: { Model.stateless($0[0]) { $0 * 3 } }) }
    @Test func filter() { check("filter", seed: 2_000, apply: { $1[0].filter { $0 > 2 } }, model: { Model.stateless($0[0]) { $0 > 2 ? $0 : nil } }) }
    @Test func compactMap() { check("compactMap", seed: 3_000, apply: { $1[0].compactMap { $0.isMultiple(of: 2) ? $0 / 2 : nil } }, model: { Model.stateless($0[0]) { $0.isMultiple(of: 2) ? $0 / 2 : nil } }) }
    @Test func scan() { check("scan", seed: 4_000, apply: { $1[0].scan(0, accumulator: +) }, model: { Model.scan($0[0]) }) }
    @Test func take() { check("take", seed: 5_000, apply: { $1[0].take(3) }, model: { Model.take($0[0], 3) }) }
    @Test func skip() { check("skip", seed: 6_000, apply: { $1[0].skip(2) }, model: { Model.skip($0[0], 2) }) }
    @Test func distinctUntilChanged() { check("distinctUntilChanged", seed: 7_000, apply: { $1[0].distinctUntilChanged() }, model: { Model.distinct($0[0]) }) }
    @Test func takeWhile() { check("takeWhile", seed: 8_000, apply: { $1[0].take(while: { $0 < 4 }) }, model: { Model.takeWhile($0[0]) { $0 < 4 } }) }
    @Test func delay() { check("delay", seed: 9_000, apply: { scheduler, sources in sources[0].delay(.milliseconds(15), scheduler: scheduler) }, model: { Model.delay($0[0], by: 15) }) }
    @Test func debounce() { check("debounce", seed: 10_000, apply: { scheduler, sources in sources[0].debounce(.milliseconds(25), scheduler: scheduler) }, model: { Model.debounce($0[0], by: 25) }) }
    @Test func merge() { check("merge", seed: 11_000, apply: { Observable.merge($1[0].asObservable(), $1[1].asObservable()) }, model: { Model.merge($0[0], $0[1]) }, sources: 2) }
    @Test func combineLatest() { check("combineLatest", seed: 12_000, apply: { Observable.combineLatest($1[0], $1[1]) { $0 + $1 } }, model: { Model.combineLatest($0[0], $0[1]) }, sources: 2) }
}
