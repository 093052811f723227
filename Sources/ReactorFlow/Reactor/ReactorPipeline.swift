/// The running loop of one reactor: action subject → transforms → mutate → reduce → state relay.
///
/// Owned only by `ReactorStorage`, which disposes it when the reactor is deinitialised; nothing in it holds the
/// reactor strongly.
///
/// Its per-action code is `@inlinable` so that it is specialised for each reactor type in the module that declares
/// the reactor: unspecialised generic code looks up type metadata at run time on every event, which cost more than
/// everything else an action does.
@usableFromInline
package final class ReactorPipeline<R: Reactor>: Disposable, @unchecked Sendable { // `subscriptions` is written only while wiring, under the build lock, and read by `dispose()` from the storage's deinit; the rest is immutable
    @usableFromInline let action: ActionSubject<R.Action>
    /// Empty until the first state arrives, which with the default scheduler happens while the pipeline is wired.
    @usableFromInline let state: StateRelay<R.State>
    @usableFromInline let isStub: Bool
    @usableFromInline let initialState: R.State
    /// No lock: appended to only while the pipeline is built (under `ReactorStorage`'s build lock) and disposed only
    /// from `ReactorStorage.deinit`, when nobody else can reach the pipeline.
    @usableFromInline @exclusivity(unchecked) var subscriptions: [Disposable] = []
    /// Counts the mutation streams still running, for `send(_:)` and `ReactorTester.finish()`.
    @usableFromInline package let effects = EffectTracker()

    @inlinable
    init(initialState: R.State) {
        action = ActionSubject()
        state = StateRelay()
        self.initialState = initialState
        isStub = false
    }

    @usableFromInline
    init(stub: Stub<R>) {
        action = stub.action
        state = stub.state
        initialState = stub.state.value
        isStub = true
        subscriptions.append(stub.action.subscribe(onNext: { [weak stub] in stub?.record($0) }))
    }

    /// The latest delivered state; `initialState` until the first one arrives on a non-immediate scheduler.
    @inlinable
    var currentState: R.State { state.latestValue ?? initialState }

    /// Calls the reactor's transforms, once, and connects the loop.
    ///
    /// Each stage whose transform returns its input unchanged (the protocol's defaults do) is joined to the next
    /// one directly, skipping the stream between them: actions go straight from the action subject to the mutation
    /// stage, mutations straight to the reducer, and, with an immediate scheduler, states straight to the relay.
    /// The rules do not change: the reducer serializes mutations itself, and the subjects serialize deliveries.
    @inlinable
    func wire(_ reactor: R) {
        let scheduler = reactor.scheduler
        let immediate = scheduler is CurrentThreadScheduler || scheduler is ImmediateScheduler
        let relay = state

        let actionInput = action.asObservable()
        let actions = reactor.transform(action: actionInput)
        let effects = self.effects
        // One lock for the stage, the reducer and the lazy state subject: none calls out while holding it, so
        // sharing it cannot deadlock, and it saves a heap block per stage.
        let lock = Lock.make()

        // What `transform(mutation:)` receives: each subscription runs a mutation stage over `actions`.
        let mutationsInput = Observable<R.Mutation>.make { [weak reactor] sink in
            MutationStage<R>(reactor: reactor, downstream: SerializedObserver(AnyObserver(sink)).asObserver(), effects: effects, lock: lock).run(actions)
        }
        let transformedMutations = reactor.transform(mutation: mutationsInput)
        let mutationsFused = transformedMutations === mutationsInput

        // What `transform(state:)` receives: the initial state, then each reduced one. The subject behind it is made
        // only if someone subscribes, which the pipeline does only when the transform changed the stream.
        let reducedStates = LazySubject<R.State>(lock: lock)
        let initialState = self.initialState
        let statesInput = Observable<R.State>.make { sink in
            reducedStates.subject.startWith(initialState).subscribeInside(sink)
        }
        let transformedStates = reactor.transform(state: statesInput)
        let statesFused = immediate && transformedStates === statesInput

        let deliver: (R.State) -> Void
        if statesFused {
            deliver = { relay.accept($0) }
        } else {
            let subject = reducedStates.subject
            deliver = { subject.onNext($0) }
        }
        let reducer = Reducer<R>(reactor: reactor, initialState: initialState, deliver: deliver, lock: lock)

        if statesFused {
            relay.accept(initialState)
        } else {
            var states = transformedStates
            if !immediate { states = states.observe(on: scheduler) }
            subscriptions.append(states.subscribe(
                onNext: { relay.accept($0) },
                onError: { Diagnostics.report(.reactorStreamEnded, error: $0, message: "\(R.self).transform(state:) failed; the last state stays current") },
                onCompleted: { Diagnostics.report(.reactorStreamEnded, message: "\(R.self).transform(state:) completed; the last state stays current") }
            ))
        }

        let mutationsEnded = AnyObserver<R.Mutation> { event in
            switch event {
            case .next(let mutation): reducer.apply(mutation)
            case .error(let error): Diagnostics.report(.reactorStreamEnded, error: error, message: "\(R.self).transform(action:) or transform(mutation:) failed; actions are no longer processed, the last state stays current")
            case .completed: Diagnostics.report(.reactorStreamEnded, message: "\(R.self).transform(action:) or transform(mutation:) completed; actions are no longer processed, the last state stays current")
            }
        }
        if mutationsFused {
            // The stage feeds the reducer directly: `Reducer.apply` serializes on its own.
            let stage = MutationStage<R>(reactor: reactor, downstream: mutationsEnded, reducer: reducer, effects: effects, lock: lock)
            subscriptions.append(stage.run(actions))
        } else {
            subscriptions.append(transformedMutations.subscribe(mutationsEnded))
        }
    }

    @usableFromInline
    package func dispose() {
        let all = subscriptions
        subscriptions = []
        for subscription in all { subscription.dispose() }
        // Subscribers that never disposed are completed with the reactor, which ends their chains, rather than leaked.
        state.completeBecauseOwnerDied()
        action.completeBecauseOwnerDied()
    }
}

/// A subject made on first use, so that a pipeline whose state transform is the identity never makes it.
@usableFromInline
final class LazySubject<Element>: @unchecked Sendable { // `made` is guarded by `lock`
    @usableFromInline let lock: Lock
    @usableFromInline var made: PublishSubject<Element>?

    @inlinable init(lock: Lock) { self.lock = lock }

    @inlinable var subject: PublishSubject<Element> {
        lock.withLock {
            if let made { return made }
            let created = PublishSubject<Element>()
            made = created
            return created
        }
    }
}

/// Applies mutations one at a time, in arrival order, each to the state the previous one produced (rule B4).
/// A mutation that arrives while another is being reduced or delivered (from another thread, or reentrantly from a
/// subscriber) is queued; the thread already draining applies it, and no lock is held while `reduce` or a
/// subscriber runs (rule B12).
///
/// `current` is touched only by the thread that holds the draining role; the role passes between threads under
/// `lock`, which orders every access, so `current` needs no lock of its own.
@usableFromInline
final class Reducer<R: Reactor>: @unchecked Sendable { // `pending` and `draining` are guarded by `lock`; `current` by the draining role
    @usableFromInline weak var reactor: R?
    @usableFromInline let lock: Lock
    @usableFromInline @exclusivity(unchecked) var current: R.State
    @usableFromInline @exclusivity(unchecked) var pending = FIFO<R.Mutation>()
    @usableFromInline @exclusivity(unchecked) var draining = false
    @usableFromInline let deliver: (R.State) -> Void

    @inlinable
    init(reactor: R, initialState: R.State, deliver: @escaping (R.State) -> Void, lock: Lock = Lock.make()) {
        self.lock = lock
        self.reactor = reactor
        self.current = initialState
        self.deliver = deliver
    }

    /// Applies `mutation` (from the user's `transform(mutation:)` stream, or a stream that ran later).
    @inlinable
    func apply(_ mutation: R.Mutation) {
        if let reactor {
            apply(mutation, reactor: reactor)
        } else {
            lock.withLock { pending.removeAll() }
        }
    }

    /// Applies `mutation` with the reactor the caller already holds, which saves a weak load and keeps the
    /// reactor's reference count untouched while the queue drains.
    @inlinable
    func apply(_ mutation: R.Mutation, reactor: R) {
        lock.lock()
        if draining {
            pending.append(mutation)
            lock.unlock()
            return
        }
        draining = true
        lock.unlock()
        var next = mutation
        while true {
            current = reactor.reduce(state: current, mutation: next)
            deliver(current)
            lock.lock()
            guard let queued = pending.popFirst() else {
                draining = false
                lock.unlock()
                return
            }
            lock.unlock()
            next = queued
        }
    }
}
