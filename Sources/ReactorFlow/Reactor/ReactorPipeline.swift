/// The running loop of one reactor: action subject → transforms → mutate → reduce → state relay.
///
/// Owned only by `ReactorStorage`, which disposes it when the reactor is deinitialised; nothing in it holds the
/// reactor strongly.
///
/// Building and wiring it are specialised for the reactor type: compiled once, unspecialised, they made a reactor
/// cost several times as long to create, in generic metadata lookups. The streams of custom transforms reach the reactor's
/// types through `ReactorEntryPoints`.
@usableFromInline
package final class ReactorPipeline<R: Reactor>: Disposable, @unchecked Sendable { // `subscriptions` is written only while wiring, by the one building thread, and read by `dispose()` from the storage's deinit; the rest is immutable
    @usableFromInline let action: ActionSubject<R.Action>
    /// Empty until the first state arrives, which with the default scheduler happens while the pipeline is wired.
    @usableFromInline let state: StateRelay<R.State>
    /// `nil` for a stub's pipeline.
    @usableFromInline let loop: ReactorLoop<R>?
    @usableFromInline let initialState: R.State
    /// No lock: appended to only while the pipeline is built (by the one thread building it) and disposed only
    /// from `ReactorStorage.deinit`, when nobody else can reach the pipeline.
    @usableFromInline @exclusivity(unchecked) var subscriptions: [Disposable] = []
    /// Whether this is a stub's pipeline (which runs no loop).
    @inlinable var isStub: Bool { loop == nil }

    /// Counts the mutation streams still running, for `send(_:)` and `ReactorTester.finish()`: the loop, or for a
    /// stub, which runs none, a tracker that is always idle.
    @usableFromInline package var effects: EffectTracker { loop ?? EffectTracker.idle }

    /// `lock` is the storage's: one lock for the storage, the loop, the subjects, the mutation stage and the tracker.
    /// None calls out while holding it, so sharing it cannot deadlock, and it saves a heap block per object.
    @inlinable
    init(initialState: R.State, lock: Lock, entryPoints: ReactorEntryPoints<R>) {
        let actionCore = ActionSubject<R.Action>.makeCore(lock: lock)
        state = StateRelay(lock: lock)
        let loop = ReactorLoop<R>(initialState: initialState, relay: state.core, lock: lock)
        action = ActionSubject(core: actionCore, receiver: loop, receive: entryPoints.receiveAction)
        self.loop = loop
        self.initialState = initialState
    }

    @usableFromInline
    init(stub: Stub<R>) {
        action = stub.action
        state = stub.state
        loop = nil
        initialState = stub.state.value
        subscriptions.append(stub.action.subscribe(onNext: { [weak stub] in stub?.record($0) }))
    }

    /// The latest delivered state; `initialState` until the first one arrives on a non-immediate scheduler.
    @inlinable
    var currentState: R.State { state.latestValue ?? initialState }

    /// Calls the reactor's transforms, once, and connects the loop.
    ///
    /// Each stage whose transform returns its input unchanged (the protocol's defaults do) is joined to the next
    /// one directly, skipping the stream between them: actions go straight from the action subject to the loop,
    /// mutations known up front straight to `reduce`, and, with an immediate scheduler, states straight to the
    /// relay. The rules do not change: the loop serializes actions and mutations, and the subjects' subscriptions
    /// serialize deliveries.
    @inlinable
    func wire(_ reactor: R, entryPoints: ReactorEntryPoints<R>) {
        guard let loop else { return }
        loop.attach(to: reactor)
        let scheduler = reactor.scheduler
        // Both are final classes, so comparing the exact type is `is`, without a dynamic cast per reactor.
        let schedulerType = ObjectIdentifier(type(of: scheduler))
        let immediate = schedulerType == ObjectIdentifier(CurrentThreadScheduler.self) || schedulerType == ObjectIdentifier(ImmediateScheduler.self)
        let relay = state

        let actionInput = action.asObservable()
        let actions = reactor.transform(action: actionInput)
        let actionsFused = actions === actionInput

        // What `transform(mutation:)` receives: each subscription runs a mutation stage over `actions`.
        // It reaches the reactor through the loop, which refers to it weakly: the input may be kept by the user's
        // transformed stream, which the pipeline keeps.
        let mutationsInput = TransformInput((loop: loop, actions: actions), start: entryPoints.runStage)
        let transformedMutations = reactor.transform(mutation: mutationsInput.asObservable())
        let mutationsFused = transformedMutations === mutationsInput

        // What `transform(state:)` receives: the initial state, then each reduced one. The subject behind it is made
        // (by the loop) only if someone subscribes, which the pipeline does only when the transform changed the stream.
        let statesInput = TransformInput((loop: loop, initialState: initialState), start: entryPoints.reducedStates)
        let transformedStates = reactor.transform(state: statesInput.asObservable())
        let statesFused = immediate && transformedStates === statesInput

        // The loop is the only sender to either.
        if !statesFused { _ = loop.reducedStates }
        let stage = mutationsFused ? MutationStage<R>(reactor: reactor, output: .loop(loop), effects: loop) : nil
        loop.configure(stage: stage, statesGoToRelay: statesFused)

        if statesFused {
            relay.acceptFromSoleSender(initialState)
        } else {
            var states = transformedStates
            if !immediate { states = states.observe(on: scheduler) }
            subscriptions.append(entryPoints.subscribeStates(relay, states))
        }

        if let stage {
            // The loop owns the stage and disposes it with itself.
            if actionsFused {
                loop.takeActionsDirectly()
            } else {
                // `transform(action:)` changed the stream: its actions go to the loop in the order it delivers them.
                _ = entryPoints.runLoopStage(stage, actions)
            }
        } else {
            subscriptions.append(entryPoints.subscribeMutations(loop, transformedMutations))
        }
    }

    @usableFromInline
    package func dispose() {
        let all = subscriptions
        subscriptions = []
        loop?.dispose()
        for subscription in all { subscription.dispose() }
        // Subscribers that never disposed are let go without an event, as in ReactorKit, where no event follows the
        // reactor's death; their closures are released now rather than kept by the dead reactor's subjects.
        state.releaseBecauseOwnerDied()
        action.releaseBecauseOwnerDied()
    }
}

/// The functions through which the pipeline reaches a reactor type's own code on every event: the action
/// subject's receiver, and the subscriptions a custom transform's stream needs.
///
/// Made where `ReactorStorage.pipeline(for:)` is inlined, in the module that declares the reactor, so each is
/// specialised for the reactor's types; none captures anything, so making one allocates nothing and calling one
/// retains nothing. Gathered here so that code that runs once per reactor can hand them on without making closures
/// of its own.
///
/// The ones a reactor with custom transforms uses cost every reactor type about 6 KB. Built unspecialised instead,
/// a keystroke of the search screen and an app-wide event cost 1.6× and 1.3× as much (Benchmarks/README.md).
@usableFromInline
struct ReactorEntryPoints<R: Reactor> {
    /// An action sent to `reactor.action`, handed to the loop (the action subject's receiver).
    @usableFromInline let receiveAction: (AnyObject, SubjectCore<R.Action>, R.Action) -> Void
    /// Subscribes the loop to the stream `transform(mutation:)` returned, when it is not the identity.
    @usableFromInline let subscribeMutations: (ReactorLoop<R>, Observable<R.Mutation>) -> Disposable
    /// Subscribes the state relay to the stream `transform(state:)` returned (observed on the reactor's scheduler),
    /// when the two are not the identity and an immediate scheduler.
    @usableFromInline let subscribeStates: (StateRelay<R.State>, Observable<R.State>) -> Disposable
    /// Subscribes the loop's own stage to the stream `transform(action:)` returned, when it is not the identity.
    @usableFromInline let runLoopStage: (MutationStage<R>, Observable<R.Action>) -> Disposable
    /// One subscription to the stream `transform(mutation:)` receives: a mutation stage over the actions.
    @usableFromInline let runStage: ((loop: ReactorLoop<R>, actions: Observable<R.Action>), AnyObserver<R.Mutation>) -> Disposable
    /// One subscription to the stream `transform(state:)` receives: the initial state, then each reduced one.
    @usableFromInline let reducedStates: ((loop: ReactorLoop<R>, initialState: R.State), AnyObserver<R.State>) -> Disposable

    @inlinable
    init() {
        receiveAction = { loop, core, action in
            unsafeDowncast(loop, to: ReactorLoop<R>.self).receiveFromSubject(action, subject: core)
        }
        subscribeMutations = { loop, mutations in mutations.subscribe(AnyObserver { loop.receiveFromStream($0) }) }
        subscribeStates = { relay, states in
            states.subscribe(
                onNext: { relay.acceptFromSoleSender($0) },
                onError: { Diagnostics.report(.reactorStreamEnded, error: $0, message: "\(R.self).transform(state:) failed; the last state stays current") },
                onCompleted: { Diagnostics.report(.reactorStreamEnded, message: "\(R.self).transform(state:) completed; the last state stays current") }
            )
        }
        runLoopStage = { stage, actions in stage.run(actions) }
        runStage = { source, observer in
            Sink.running(observer) { sink in
                MutationStage<R>(reactor: source.loop.attachedReactor, output: .observer(.init(SerializedObserver(AnyObserver(sink)).asObserver())),
                                 effects: source.loop).run(source.actions)
            }
        }
        reducedStates = { source, observer in
            Sink.running(observer) { sink in source.loop.reducedStates.startWith(source.initialState).subscribeInside(sink) }
        }
    }
}
