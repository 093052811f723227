import FloorAtomics
import Foundation
import HeapStatistics
import ReactorFlow

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

/// A hand-written subscriber that a pulse floor serializes with its lock (`FloorLock.deliver(_:to:)`).
protocol LockSerializedSubscriber: AnyObject {
    /// Guarded by the floor's lock.
    var delivering: Bool { get set }
    /// Guarded by the floor's lock; nothing disposes a floor's subscriber, so it stays false: it is there for the
    /// check a real subject makes per delivery.
    var disposed: Bool { get }
    func receive(_ state: PulseReactor.State)
}

extension FloorLock {
    /// Called holding the lock: takes `subscriber`'s delivering role, calls it without the lock, and gives the role
    /// back, as a subject's subscription does (rules A2, A3, B12). A real subject queues the state for a subscriber
    /// that is busy; here none ever is.
    @inline(__always)
    func deliver<Subscriber: LockSerializedSubscriber>(_ state: PulseReactor.State, to subscriber: Subscriber) {
        guard !subscriber.disposed && !subscriber.delivering else { return }
        subscriber.delivering = true
        unlock()
        subscriber.receive(state)
        lock()
        subscriber.delivering = false
    }
}

/// What a `SerializedStore` may refer to weakly, as a reactor's loop refers to its reactor.
final class StoreOwner {}

/// A subscriber of the pulse floor, written by hand: one of the scenario's ten
/// `state.map { $0.fields[index] }.distinctUntilChanged()` subscribers, or its `pulse(\.$alert)` one.
final class PulseFloorSubscriber: LockSerializedSubscriber {
    /// The field it watches; `nil` for the one that watches the pulse.
    let field: Int?
    @exclusivity(unchecked) var lastValue: Int?
    @exclusivity(unchecked) var lastUpdate: UInt = 0
    @exclusivity(unchecked) var alerts = 0
    /// For the floor whose subscribers are serialized with a lock (see `LockSerializedSubscriber`).
    @exclusivity(unchecked) var delivering = false
    @exclusivity(unchecked) var disposed = false
    /// For the floor whose subscribers are serialized without one: idle (0), being delivered to (1), disposed (2,
    /// never set here, as `disposed` is not).
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

/// A subscriber of the pulse floor written as closures (`floorSerializedStorePulseThroughClosures`): one of the
/// scenario's `state.map { $0.fields[index] }.distinctUntilChanged().subscribe(onNext:)` bindings with the operators
/// inlined and the user's two closures called, or its `pulse(\.$alert).subscribe(onNext:)` one.
final class PulseClosureSubscriber: LockSerializedSubscriber {
    /// Whether it watches the pulse (`onAlert`) rather than a field (`map` and `onNext`). The closures are not
    /// optional, so that calling one costs no reference counting: the unused ones do nothing.
    let watchesPulse: Bool
    let map: (PulseReactor.State) -> Int
    let onNext: (Int) -> Void
    let onAlert: (String?) -> Void
    @exclusivity(unchecked) var lastValue: Int?
    /// Starts where `PulseFloorSubscriber`'s does, so that the two floors compare the same values.
    @exclusivity(unchecked) var lastUpdate: UInt = 0
    /// See `LockSerializedSubscriber`.
    @exclusivity(unchecked) var delivering = false
    @exclusivity(unchecked) var disposed = false

    init(map: @escaping (PulseReactor.State) -> Int, onNext: @escaping (Int) -> Void) {
        watchesPulse = false
        self.map = map
        self.onNext = onNext
        onAlert = { _ in }
    }

    init(onAlert: @escaping (String?) -> Void) {
        watchesPulse = true
        map = { _ in 0 }
        onNext = { _ in }
        self.onAlert = onAlert
    }

    func receive(_ state: PulseReactor.State) {
        if watchesPulse {
            let update = state.$alert.valueUpdatedCount
            if update != lastUpdate {
                lastUpdate = update
                onAlert(state.alert)
            }
        } else {
            let value = map(state)
            if value != lastValue {
                lastValue = value
                onNext(value)
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
