/// The running loop of one reactor: action subject → transforms → mutate → reduce → state relay.
///
/// Owned only by `ReactorStorage`, which disposes it when the reactor is deinitialised; nothing in it holds the
/// reactor strongly.
package final class ReactorPipeline<R: Reactor>: Disposable, @unchecked Sendable { // `subscriptions` is itself locked; the rest is immutable
    let action: ActionSubject<R.Action>
    /// Empty until the first state arrives, which with the default scheduler happens while the pipeline is wired.
    let state: StateRelay<R.State>
    let isStub: Bool
    private let initialState: R.State
    private let subscriptions = CompositeDisposable()
    /// Counts the mutation streams still running, for `send(_:)` and `ReactorTester.finish()`.
    package let effects = EffectTracker()

    init(initialState: R.State) {
        action = ActionSubject()
        state = StateRelay()
        self.initialState = initialState
        isStub = false
    }

    init(stub: Stub<R>) {
        action = stub.action
        state = stub.state
        initialState = stub.state.value
        isStub = true
        subscriptions.insert(stub.action.subscribe(onNext: { [weak stub] in stub?.record($0) }))
    }

    /// The latest delivered state; `initialState` until the first one arrives on a non-immediate scheduler.
    var currentState: R.State { state.latestValue ?? initialState }

    /// Calls the reactor's transforms, once, and connects the loop.
    func wire(_ reactor: R) {
        let scheduler = reactor.scheduler
        let reducer = Reducer<R>(reactor: reactor, initialState: initialState)

        let actions = reactor.transform(action: action.asObservable())
        let effects = self.effects
        let mutations = Observable<R.Mutation>.make { [weak reactor] sink in
            MutationStage<R>(reactor: reactor, downstream: sink, effects: effects).run(actions)
        }
        let transformedMutations = reactor.transform(mutation: mutations)
        var states = reactor.transform(state: reducer.states.startWith(initialState))
        if !(scheduler is CurrentThreadScheduler) && !(scheduler is ImmediateScheduler) {
            states = states.observe(on: scheduler)
        }

        let relay = state
        subscriptions.insert(states.subscribe(
            onNext: { relay.accept($0) },
            onError: { Diagnostics.report(.reactorStreamEnded, error: $0, message: "\(R.self).transform(state:) failed; the last state stays current") },
            onCompleted: { Diagnostics.report(.reactorStreamEnded, message: "\(R.self).transform(state:) completed; the last state stays current") }
        ))
        subscriptions.insert(transformedMutations.subscribe(
            onNext: { reducer.apply($0) },
            onError: { Diagnostics.report(.reactorStreamEnded, error: $0, message: "\(R.self).transform(action:) or transform(mutation:) failed; actions are no longer processed, the last state stays current") },
            onCompleted: { Diagnostics.report(.reactorStreamEnded, message: "\(R.self).transform(action:) or transform(mutation:) completed; actions are no longer processed, the last state stays current") }
        ))
    }

    package func dispose() {
        subscriptions.dispose()
        // Subscribers that never disposed are completed with the reactor, which ends their chains, rather than leaked.
        state.completeBecauseOwnerDied()
        action.completeBecauseOwnerDied()
    }
}

/// Applies mutations one at a time, in arrival order, each to the state the previous one produced (rule B4).
/// A mutation that arrives while another is being reduced or delivered (from another thread, or reentrantly from a
/// subscriber) is queued; the thread already draining applies it, and no lock is held while `reduce` or a
/// subscriber runs (rule B12).
final class Reducer<R: Reactor>: @unchecked Sendable { // queue and state are guarded by `lock`
    let states = PublishSubject<R.State>()
    private weak var reactor: R?
    private let lock = Lock.make()
    private var current: R.State
    private var pending = FIFO<R.Mutation>()
    private var draining = false

    init(reactor: R, initialState: R.State) {
        self.reactor = reactor
        self.current = initialState
    }

    func apply(_ mutation: R.Mutation) {
        lock.lock()
        pending.append(mutation)
        if draining {
            lock.unlock()
            return
        }
        draining = true
        while let mutation = pending.popFirst() {
            let previous = current
            lock.unlock()
            guard let reactor else {
                lock.lock()
                continue
            }
            let next = reactor.reduce(state: previous, mutation: mutation)
            lock.lock()
            current = next
            lock.unlock()
            states.onNext(next)
            lock.lock()
        }
        draining = false
        lock.unlock()
    }
}

