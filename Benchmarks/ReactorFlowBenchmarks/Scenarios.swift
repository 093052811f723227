import FloorAtomics
import Foundation
import HeapStatistics
import ReactorFlow

// The reactors and streams measured. Each scenario returns the nanoseconds one run took and the number of
// operations in it.

/// The one action of the counter scenarios.
enum IncreaseAction { case increase }

final class CounterReactor: Reactor {
    typealias Action = IncreaseAction
    enum Mutation { case increaseValue }
    struct State { var value = 0 }

    let initialState = State()
    let reactorStorage = ReactorStorage()

    func mutate(action: Action) -> Observable<Mutation> { .just(.increaseValue) }

    func reduce(state: State, mutation: Mutation) -> State {
        var state = state
        state.value += 1
        return state
    }
}

final class Concat3Reactor: Reactor {
    typealias Action = IncreaseAction
    enum Mutation { case setLoading(Bool), increaseValue }
    struct State { var value = 0; var isLoading = false }

    let initialState = State()
    let reactorStorage = ReactorStorage()

    func mutate(action: Action) -> Observable<Mutation> {
        .concat(.just(.setLoading(true)), .just(.increaseValue), .just(.setLoading(false)))
    }

    func reduce(state: State, mutation: Mutation) -> State {
        var state = state
        switch mutation {
        case .setLoading(let isLoading): state.isLoading = isLoading
        case .increaseValue: state.value += 1
        }
        return state
    }
}

final class PulseReactor: Reactor {
    enum Action { case alert(String), tick }
    struct State {
        var ticks = 0
        var fields = Array(repeating: 0, count: 10)
        @Pulse var alert: String?
    }

    let initialState = State()
    let reactorStorage = ReactorStorage()

    func reduce(state: State, mutation: Action) -> State {
        var state = state
        switch mutation {
        case .alert(let message): state.alert = message
        case .tick: state.ticks += 1
        }
        return state
    }
}

/// A screen's worth of state: six strings too long to be stored inline and two arrays, so that copying the state
/// means retaining and releasing eight heap buffers.
final class WideStateReactor: Reactor {
    enum Action { case tick }
    struct State {
        var ticks = 0
        var title = "A title long enough for the heap", subtitle = "A subtitle long enough for the heap"
        var userName = "someone.with.a.long.name", email = "someone.with.a.long.name@example.com"
        var status = "Status: everything is fine here", footer = "A footer long enough for the heap"
        var items = Array(0..<20), tags = ["first tag", "second tag"]
    }

    let initialState = State()
    let reactorStorage = ReactorStorage()

    func reduce(state: State, mutation: Action) -> State {
        var state = state
        state.ticks += 1
        return state
    }
}

/// Keeps a value alive and opaque to the optimizer.
@inline(never)
func blackHole<T>(_ value: T) {
    withExtendedLifetime(value) {}
}

func elapsed(_ body: () -> Void) -> UInt64 {
    let start = DispatchTime.now().uptimeNanoseconds
    body()
    return DispatchTime.now().uptimeNanoseconds - start
}

enum Scenarios {
    /// `n` `.increase` actions to a fresh reactor with one state subscriber; checks that none was lost.
    static func actions<R: Reactor>(to makeReactor: @escaping () -> R, value: @escaping (R.State) -> Int) -> (Int) -> UInt64 where R.Action == IncreaseAction {
        { n in
            let reactor = makeReactor()
            var last = 0
            let subscription = reactor.state.subscribe(onNext: { last = value($0) })
            let action = reactor.action
            let time = elapsed { for _ in 0..<n { action.onNext(.increase) } }
            precondition(last == n, "\(R.self) lost actions")
            subscription.dispose()
            return time
        }
    }

    static var counter: (Int) -> UInt64 { actions(to: CounterReactor.init) { $0.value } }
    static var concat3: (Int) -> UInt64 { actions(to: Concat3Reactor.init) { $0.value } }

    static func pulse(_ n: Int) -> UInt64 {
        let reactor = PulseReactor()
        let bag = DisposeBag()
        var alerts = 0
        reactor.pulse(\.$alert).subscribe(onNext: { _ in alerts += 1 }).disposed(by: bag)
        for index in 0..<10 {
            reactor.state.map { $0.fields[index] }.distinctUntilChanged().subscribe(onNext: { blackHole($0) }).disposed(by: bag)
        }
        let action = reactor.action
        let time = elapsed {
            for index in 0..<n { action.onNext(index.isMultiple(of: 2) ? .alert("hi") : .tick) }
        }
        precondition(alerts == n / 2 + 1, "pulse lost alerts")
        return time
    }

    /// `pulse`'s ten `state.map{…}.distinctUntilChanged()` subscribers over a wide state, each seeing every action:
    /// what a screen's bindings cost when its state holds strings and arrays.
    static func wideState(_ n: Int) -> UInt64 {
        let reactor = WideStateReactor()
        let bag = DisposeBag()
        var last = 0
        reactor.state.map { $0.ticks }.distinctUntilChanged().subscribe(onNext: { last = $0 }).disposed(by: bag)
        for _ in 1..<10 {
            reactor.state.map { $0.ticks }.distinctUntilChanged().subscribe(onNext: { blackHole($0) }).disposed(by: bag)
        }
        let action = reactor.action
        let time = elapsed { for _ in 0..<n { action.onNext(.tick) } }
        precondition(last == n, "wide-state lost states")
        return time
    }

    static func fanout(subscribers: Int) -> (Int) -> UInt64 {
        { n in
            let subject = PublishSubject<Int>()
            let bag = DisposeBag()
            var total = 0
            for _ in 0..<subscribers { subject.subscribe(onNext: { total &+= $0 }).disposed(by: bag) }
            let time = elapsed { for value in 0..<n { subject.onNext(value) } }
            blackHole(total)
            return time
        }
    }

    /// `n` elements through `chain` from a subject, with one closure subscriber.
    static func operators(_ chain: @escaping (Observable<Int>) -> Observable<Int>) -> (Int) -> UInt64 {
        { n in
            let subject = PublishSubject<Int>()
            var last = 0
            let subscription = chain(subject.asObservable()).subscribe(onNext: { last = $0 })
            let time = elapsed { for value in 0..<n { subject.onNext(value) } }
            blackHole(last)
            subscription.dispose()
            return time
        }
    }

    static var operatorChain: (Int) -> UInt64 { operators { $0.map { $0 &* 2 }.filter { $0 % 3 != 0 }.distinctUntilChanged().scan(0, accumulator: &+) } }
    static var flatMapJust: (Int) -> UInt64 { operators { $0.flatMap { Observable.just($0) } } }
    static var flatMapLatest: (Int) -> UInt64 { operators { $0.flatMapLatest { Observable.just($0) } } }

    /// `distinctUntilChanged(at:)` over a screen's state, the key path naming a stored property; every other state
    /// repeats the one before it.
    static func distinctAtKeyPath(_ n: Int) -> UInt64 {
        let subject = PublishSubject<ListingState>()
        var last = 0
        let subscription = subject.distinctUntilChanged(at: \.page).subscribe(onNext: { last = $0.page })
        let states = [ListingState(query: "swift", page: 1, results: ["a", "b"]),
                      ListingState(query: "swift", page: 2, results: ["c", "d"])]
        let time = elapsed { for value in 0..<n { subject.onNext(states[(value >> 1) & 1]) } }
        blackHole(last)
        subscription.dispose()
        return time
    }

    static func contended(_ n: Int) -> UInt64 {
        let reactor = CounterReactor()
        let subscription = reactor.state.subscribe(onNext: { blackHole($0) })
        let half = n / 2
        let time = onTwoThreads(sharing: reactor) { reactor in
            let action = reactor.action
            for _ in 0..<half { action.onNext(.increase) }
        }
        precondition(reactor.currentState.value == half * 2, "contended lost actions")
        subscription.dispose()
        return time
    }

    /// The time `body` takes when two new threads run it at once, each with `shared`, which must serialize what
    /// they do with it.
    static func onTwoThreads<Shared: AnyObject>(sharing shared: Shared, _ body: @escaping (Shared) -> Void) -> UInt64 {
        let handOver = HandOver(shared, body)
        return elapsed {
            let group = DispatchGroup()
            for _ in 0..<2 {
                group.enter()
                Thread.detachNewThread {
                    handOver.body(handOver.shared)
                    group.leave()
                }
            }
            group.wait()
        }
    }

    static func createReactor(_ n: Int) -> UInt64 {
        var reactors: [CounterReactor] = []
        var subscriptions: [Disposable] = []
        reactors.reserveCapacity(n)
        subscriptions.reserveCapacity(n)
        let time = elapsed {
            for _ in 0..<n {
                let reactor = CounterReactor()
                subscriptions.append(reactor.state.subscribe(onNext: { blackHole($0) }))
                reactors.append(reactor)
            }
        }
        for subscription in subscriptions { subscription.dispose() }
        blackHole(reactors)
        return time
    }

    /// The plain `state = reduce(state, mutation)` loop, with the reducer behind an opaque call so it is not folded.
    static func floorReduceLoop(_ n: Int) -> UInt64 {
        var state = CounterReactor.State()
        let reduce = opaqueReducer(of: CounterReactor())
        let time = elapsed {
            for _ in 0..<n { state = reduce(state, .increaseValue) }
        }
        precondition(state.value == n)
        return time
    }

    /// The same loop plus one closure subscriber: the least any state delivery can cost.
    static func floorReduceAndSubscriber(_ n: Int) -> UInt64 {
        var state = CounterReactor.State()
        let reduce = opaqueReducer(of: CounterReactor())
        var seen = 0
        let subscriber = opaqueSubscriber { (state: CounterReactor.State) in seen = state.value }
        let time = elapsed {
            for _ in 0..<n {
                state = reduce(state, .increaseValue)
                subscriber(state)
            }
        }
        precondition(seen == n)
        return time
    }

    /// The minimal serialized store: a lock, a reentrancy queue and one subscriber, with none of a
    /// reactor's other duties (no `mutate`, no effects, no replay, no dispose safety). `boxed` hands each mutation
    /// over in a fresh heap object, as `mutate`'s `.just` does: the share of a `counter` action the API itself costs.
    /// `weakOwner` adds what rule B9 costs: the store refers to its owner weakly, as a reactor's loop refers to the
    /// reactor, and holds it for each turn, so that an owner released on another thread cannot die mid-turn.
    static func floorSerializedStore(boxed: Bool, weakOwner: Bool = false) -> (Int) -> UInt64 {
        { n in
            var seen = 0
            let owner = StoreOwner()
            let store = SerializedStore(initialState: CounterReactor.State(),
                                        reduce: opaqueReducer(of: CounterReactor()),
                                        subscriber: opaqueSubscriber { seen = $0.value },
                                        owner: weakOwner ? owner : nil)
            let time = elapsed {
                if boxed {
                    for _ in 0..<n { store.send(boxing: .increaseValue) }
                } else {
                    for _ in 0..<n { store.send(.increaseValue) }
                }
            }
            precondition(seen == n)
            withExtendedLifetime(owner) {}
            return time
        }
    }

    /// `concat3`'s share of the same floor: per operation three mutations, reduced and delivered one at a time in
    /// one turn, handed over in the five heap objects `concat(.just, .just, .just)` makes, with the owner held weakly.
    static func floorSerializedStoreConcat3(_ n: Int) -> UInt64 {
        var seen = 0
        let owner = StoreOwner()
        let store = SerializedStore(initialState: CounterReactor.State(), reduce: opaqueReducer(of: CounterReactor()),
                                    subscriber: opaqueSubscriber { seen = $0.value }, owner: owner)
        let time = elapsed {
            for _ in 0..<n { store.send(boxingThree: .increaseValue, .increaseValue, .increaseValue) }
        }
        precondition(seen == 3 * n)
        withExtendedLifetime(owner) {}
        return time
    }

    /// `pulse`'s share of the same floor: the owner held weakly, and eleven subscribers that each do what the
    /// scenario's do (ten compare one field with the last they saw, one watches the pulse's update count), called
    /// one after another with the state.
    ///
    /// `serialization` adds the least that rules A2 and A3 ask of each subscriber, or not: a subscriber is never
    /// called concurrently with itself (a replay on a subscribing thread may overlap the loop's delivery), and not at
    /// all once disposed on another thread, while nothing is locked as it runs (B12). So each delivery claims the
    /// subscriber, calls it, and gives the claim back: with a lock round trip, as ReactorFlow's subjects do; with
    /// two compare-and-swaps on a word of the subscriber's, so that a disposer waiting for the delivery can be woken;
    /// or with one compare-and-swap and a plain store, the least a processor offers, if a disposer polls instead.
    static func floorSerializedStorePulse(serialization: SubscriberSerialization) -> (Int) -> UInt64 {
        { n in
            let owner = StoreOwner()
            let alerts = PulseFloorSubscriber(field: nil)
            let subscribers = [alerts] + (0..<10).map(PulseFloorSubscriber.init)
            let lock = FloorLock()
            // Without reference counting per subscriber: the list holds them all along.
            let deliver = opaqueSubscriber { (state: PulseReactor.State) in
                if serialization == .lock { lock.lock() }
                for index in subscribers.indices {
                    Unmanaged.passUnretained(subscribers[index])._withUnsafeGuaranteedRef { subscriber in
                        switch serialization {
                        case .none:
                            subscriber.receive(state)
                        case .lock:
                            // A real subject queues the state for a subscriber that is busy; here none ever is.
                            guard !subscriber.disposed && !subscriber.delivering else { return }
                            subscriber.delivering = true
                            lock.unlock()
                            subscriber.receive(state)
                            lock.lock()
                            subscriber.delivering = false
                        case .compareAndSwapTwice:
                            guard subscriber.claim() else { return }
                            subscriber.receive(state)
                            // Fails only if a disposer marked the word meanwhile: it would be woken here.
                            _ = subscriber.unclaim()
                        case .compareAndSwapThenStore:
                            guard subscriber.claim() else { return }
                            subscriber.receive(state)
                            floor_store_release(subscriber.claimWord, 0)
                        }
                    }
                }
                if serialization == .lock { lock.unlock() }
            }
            let store = SerializedStore(initialState: PulseReactor.State(), reduce: opaqueReducer(of: PulseReactor()),
                                        subscriber: deliver, owner: owner)
            let time = elapsed {
                for index in 0..<n { store.send(index.isMultiple(of: 2) ? .alert("hi") : .tick) }
            }
            precondition(alerts.alerts == (n + 1) / 2, "the pulse floor lost alerts")
            withExtendedLifetime(owner) {}
            return time
        }
    }

    /// A reference for `contended`: the boxed store with its owner held weakly, and two threads sending `n / 2`
    /// mutations each, so that the lock, the store's fields and the owner's side table move between the two cores as
    /// a reactor's do. Not a lower bound: under two senders the cost also depends on who wins the lock and how the
    /// work batches, and ReactorFlow's `contended` has come out below it.
    static func floorSerializedStoreContended(_ n: Int) -> UInt64 {
        var seen = 0
        let owner = StoreOwner()
        let store = SerializedStore(initialState: CounterReactor.State(), reduce: opaqueReducer(of: CounterReactor()),
                                    subscriber: opaqueSubscriber { seen = $0.value }, owner: owner)
        let half = n / 2
        let time = onTwoThreads(sharing: store) { store in
            for _ in 0..<half { store.send(boxing: .increaseValue) }
        }
        precondition(seen == half * 2, "the contended floor lost mutations")
        withExtendedLifetime(owner) {}
        return time
    }

    enum SubscriberSerialization { case none, lock, compareAndSwapTwice, compareAndSwapThenStore }

    @inline(never)
    static func opaqueReducer<R: Reactor>(of reactor: R) -> (R.State, R.Mutation) -> R.State {
        { reactor.reduce(state: $0, mutation: $1) }
    }

    @inline(never)
    static func opaqueSubscriber<State>(_ body: @escaping (State) -> Void) -> (State) -> Void {
        body
    }
}

/// The state `Scenarios.distinctAtKeyPath` sends.
struct ListingState {
    var query: String
    var page: Int
    var results: [String]
}

/// See `Scenarios.floorSerializedStore`. Deliberately written without ReactorFlow, on a bare pthread mutex (`FloorLock`).
final class SerializedStore<State, Mutation> {
    final class Box {
        let mutation: Mutation
        init(_ mutation: Mutation) { self.mutation = mutation }
    }

    private let lock = FloorLock()
    @exclusivity(unchecked) private var state: State
    @exclusivity(unchecked) private var queue: [Mutation] = []
    @exclusivity(unchecked) private var running = false
    private let reduce: (State, Mutation) -> State
    private let subscriber: (State) -> Void
    /// For the `weakOwner` floor: each turn then holds the owner, loaded from this weak reference.
    private weak var owner: StoreOwner?
    private let holdsOwner: Bool

    init(initialState: State, reduce: @escaping (State, Mutation) -> State, subscriber: @escaping (State) -> Void,
         owner: StoreOwner? = nil) {
        state = initialState
        self.reduce = reduce
        self.subscriber = subscriber
        self.owner = owner
        holdsOwner = owner != nil
    }

    func send(_ mutation: Mutation) {
        send(mutation, queueingAfter: { _ in })
    }

    /// Sends `first`, then what `queueRest` appends to the queue, with nothing sent meanwhile in between.
    @inline(__always)
    private func send(_ first: Mutation, queueingAfter queueRest: (inout [Mutation]) -> Void) {
        lock.lock()
        if running {
            queue.append(first)
            queueRest(&queue)
            lock.unlock()
            return
        }
        running = true
        queueRest(&queue)
        lock.unlock()
        if holdsOwner {
            guard let owner else {
                // The owner is gone: its work is dropped, as a reactor's loop drops a gone reactor's.
                lock.lock()
                running = false
                queue.removeAll()
                lock.unlock()
                return
            }
            withExtendedLifetime(owner) { runTurn(first) }
        } else {
            runTurn(first)
        }
    }

    private func runTurn(_ mutation: Mutation) {
        apply(mutation)
        // What arrived meanwhile is taken a batch at a time, as a reactor's loop takes it: while another thread keeps
        // sending, the queue stays long, and taking one item per lock round trip would cost `removeFirst`'s shift of
        // the whole array each time.
        var batch: [Mutation] = []
        while true {
            lock.lock()
            if queue.isEmpty {
                running = false
                lock.unlock()
                return
            }
            swap(&queue, &batch)
            lock.unlock()
            for next in batch { apply(next) }
            batch.removeAll(keepingCapacity: true)
        }
    }

    @inline(__always)
    private func apply(_ mutation: Mutation) {
        state = reduce(state, mutation)
        subscriber(state)
    }

    @inline(never)
    func send(boxing mutation: Mutation) {
        let box = Self.box(mutation)
        send(box.mutation)
    }

    @inline(never)
    static func box(_ mutation: Mutation) -> Box { Box(mutation) }

    /// Five heap objects, as `concat(.just(a), .just(b), .just(c))` makes: three boxes, their array and a holder.
    @inline(never)
    func send(boxingThree first: Mutation, _ second: Mutation, _ third: Mutation) {
        let holder = Self.holder([Self.box(first), Self.box(second), Self.box(third)])
        send(holder.boxes[0].mutation) { queue in
            queue.append(holder.boxes[1].mutation)
            queue.append(holder.boxes[2].mutation)
        }
    }

    final class Holder {
        let boxes: [Box]
        init(_ boxes: [Box]) { self.boxes = boxes }
    }

    @inline(never)
    static func holder(_ boxes: [Box]) -> Holder { Holder(boxes) }
}

/// A bare pthread mutex, for the floors.
final class FloorLock {
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    init() { pthread_mutex_init(mutex, nil) }
    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }
    @inline(__always) func lock() { pthread_mutex_lock(mutex) }
    @inline(__always) func unlock() { pthread_mutex_unlock(mutex) }
}

/// What a `SerializedStore` may refer to weakly, as a reactor's loop refers to its reactor.
final class StoreOwner {}

/// A subscriber of the pulse floor, written by hand: one of the scenario's ten
/// `state.map { $0.fields[index] }.distinctUntilChanged()` subscribers, or its `pulse(\.$alert)` one.
final class PulseFloorSubscriber {
    /// The field it watches; `nil` for the one that watches the pulse.
    let field: Int?
    @exclusivity(unchecked) var lastValue: Int?
    @exclusivity(unchecked) var lastUpdate: UInt = 0
    @exclusivity(unchecked) var alerts = 0
    /// For the floor whose subscribers are serialized with a lock; guarded by it. Nothing disposes a floor
    /// subscriber, so `disposed` stays false: it is there for the check a real subject makes per delivery.
    @exclusivity(unchecked) var delivering = false
    @exclusivity(unchecked) var disposed = false
    /// For the floor whose subscribers are serialized without one: idle (0), being delivered to (1), disposed (2,
    /// never set here, as above).
    let claimWord = UnsafeMutablePointer<Int>.allocate(capacity: 1)

    init(field: Int?) {
        self.field = field
        claimWord.initialize(to: 0)
    }

    deinit { claimWord.deallocate() }

    @inline(__always) func claim() -> Bool { floor_compare_exchange(claimWord, 0, 1) }
    @inline(__always) func unclaim() -> Bool { floor_compare_exchange(claimWord, 1, 0) }

    func receive(_ state: PulseReactor.State) {
        if let field {
            let value = state.fields[field]
            if value != lastValue {
                lastValue = value
                blackHole(value)
            }
        } else {
            let update = state.$alert.valueUpdatedCount
            if update != lastUpdate {
                lastUpdate = update
                alerts += 1
            }
        }
    }
}

/// Hands one object, and what to do with it, to the benchmark's two threads (`Scenarios.onTwoThreads`).
final class HandOver<Shared: AnyObject>: @unchecked Sendable { // read-only after init; `shared` serializes its own use with its lock (a reactor's, or the floor store's)
    let shared: Shared
    let body: (Shared) -> Void
    init(_ shared: Shared, _ body: @escaping (Shared) -> Void) {
        self.shared = shared
        self.body = body
    }
}

/// Resident memory in bytes, from /proc/self/statm (0 where that file does not exist). The memory scenarios run
/// first, in a fresh process, so that memory freed by other scenarios cannot hide what they allocate.
func residentBytes() -> Int {
    guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
    let fields = text.split(separator: " ")
    guard fields.count > 1, let pages = Int(fields[1]) else { return 0 }
    return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
}

/// Bytes the allocator has handed out and not had back (glibc's `mallinfo2`): exact, unlike the resident set,
/// which does not grow while freed memory is reused.
func heapBytesInUse() -> Int {
    Int(heap_bytes_in_use())
}

/// Memory per reactor (each with one state subscription), over `count` reactors: resident-set growth and heap bytes.
func memoryPerReactor(count: Int) -> (resident: Double, heap: Double) {
    var reactors: [CounterReactor] = []
    var subscriptions: [Disposable] = []
    reactors.reserveCapacity(count)
    subscriptions.reserveCapacity(count)
    let before = (residentBytes(), heapBytesInUse())
    for _ in 0..<count {
        let reactor = CounterReactor()
        subscriptions.append(reactor.state.subscribe(onNext: { blackHole($0) }))
        reactors.append(reactor)
    }
    let after = (residentBytes(), heapBytesInUse())
    blackHole(reactors)
    blackHole(subscriptions)
    return (Double(after.0 - before.0) / Double(count), Double(after.1 - before.1) / Double(count))
}

/// Heap bytes per idle subscription to one subject.
func memoryPerSubscription(count: Int) -> Double {
    let subject = PublishSubject<Int>()
    var subscriptions: [Disposable] = []
    subscriptions.reserveCapacity(count)
    let before = heapBytesInUse()
    for _ in 0..<count { subscriptions.append(subject.subscribe(onNext: { blackHole($0) })) }
    let after = heapBytesInUse()
    blackHole(subscriptions)
    return Double(after - before) / Double(count)
}
