import FloorAtomics
import Foundation
import HeapStatistics
import ReactorFlow

/// The floors: the same work as a scenario with none of the framework, measured in the same run.
extension Scenarios {
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
            let alerts = PulseFloorSubscriber(field: nil)
            let subscribers = [alerts] + pulseFieldIndices().map(PulseFloorSubscriber.init)
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
                            lock.deliver(state, to: subscriber)
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
            let time = sendPulseActions(n, to: deliver)
            precondition(alerts.alerts == (n + 1) / 2, "the pulse floor lost alerts")
            return time
        }
    }

    /// `pulse`'s actions, alternately an alert and a tick, `n` of them sent to a store with its owner held weakly that
    /// hands each state to `deliver`.
    @inline(__always)
    static func sendPulseActions(_ n: Int, to deliver: @escaping (PulseReactor.State) -> Void) -> UInt64 {
        let owner = StoreOwner()
        let store = SerializedStore(initialState: PulseReactor.State(), reduce: opaqueReducer(of: PulseReactor()),
                                    subscriber: deliver, owner: owner)
        let time = elapsed {
            for index in 0..<n { store.send(index.isMultiple(of: 2) ? .alert("hi") : .tick) }
        }
        withExtendedLifetime(owner) {}
        return time
    }

    /// `pulse`'s floor with its subscribers written as closures, the least a binding does whose code is the user's
    /// closures: each of the ten calls the user's `map` closure, compares the value with the last it saw and calls the
    /// user's `onNext` closure when it changed; the eleventh compares the pulse's update count and calls its `onNext`.
    /// Serialized with a lock round trip each, as in `pulse`'s floor. A reference, not the contract's floor: it shows
    /// how much of `pulse`'s multiple the two calls per binding account for.
    static func floorSerializedStorePulseThroughClosures(_ n: Int) -> UInt64 {
        let alerts = AlertCount()
        let subscribers = [PulseClosureSubscriber(onAlert: { _ in alerts.count += 1 })]
            + pulseFieldIndices().map { index in PulseClosureSubscriber(map: { $0.fields[index] }, onNext: { blackHole($0) }) }
        let lock = FloorLock()
        let deliver = opaqueSubscriber { (state: PulseReactor.State) in
            lock.lock()
            for index in subscribers.indices {
                Unmanaged.passUnretained(subscribers[index])._withUnsafeGuaranteedRef { lock.deliver(state, to: $0) }
            }
            lock.unlock()
        }
        let time = sendPulseActions(n, to: deliver)
        precondition(alerts.count == (n + 1) / 2, "the pulse closure floor lost alerts")
        return time
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

    /// The indices of the fields `pulse`'s ten bindings watch, and its floors' ten subscribers, from a function the
    /// optimiser does not see into. Over a range it knows, it unrolls the scenario's loop and makes each binding's
    /// `map` closure a function of its own, for its index: ten call targets that the floors, each subscriber the same
    /// code with its own index, do not have (about 9% of a `pulse` action, in alternating runs against the floor).
    @inline(never)
    static func pulseFieldIndices() -> Range<Int> {
        0..<10
    }

    @inline(never)
    static func opaqueSubscriber<State>(_ body: @escaping (State) -> Void) -> (State) -> Void {
        body
    }
}
