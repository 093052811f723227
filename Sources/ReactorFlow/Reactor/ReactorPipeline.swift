/// The running loop of one reactor: action subject → transforms → mutate → reduce → state relay.
///
/// Owned only by `ReactorStorage`, which disposes it when the reactor is deinitialised; nothing in it holds the
/// reactor strongly.
///
/// Making it is specialised for the reactor type; joining its stages and publishing the initial state are compiled
/// once, since they run once per reactor (`joinStages`), and what runs per event is made in the reactor type's code
/// and handed in (the action subject's receiver, the handlers of a hook's own stream), so that no event and no later
/// state runs generic code. A reactor with the default transforms carries none of a custom transform's code: `wire`
/// makes those handlers only where a hook returned a stream of its own (see `TransformInput`).
@usableFromInline
package final class ReactorPipeline<R: Reactor>: AnyReactorPipeline, Disposable, @unchecked Sendable { // `subscriptions` is written only while wiring, by the one building thread, and read by `dispose()` from the storage's deinit; the rest is immutable
    @usableFromInline let action: ActionSubject<R.Action>
    /// Empty until the first state arrives, which with the default scheduler happens while the pipeline is wired.
    @usableFromInline let state: StateRelay<R.State>
    /// `nil` for a stub's pipeline.
    @usableFromInline let loop: ReactorLoop<R>?
    @usableFromInline let initialState: R.State
    /// No lock: appended to only while the pipeline is built (by the one thread building it) and disposed only
    /// from `ReactorStorage.deinit`, when nobody else can reach the pipeline.
    @usableFromInline @exclusivity(unchecked) var subscriptions: [Disposable] = []

    /// Counts the mutation streams still running, for `send(_:)` and `ReactorTester.finish()`: the loop, or for a
    /// stub, which runs none, a tracker that is always idle.
    @usableFromInline package var effects: EffectTracker { loop ?? EffectTracker.idle }

    /// `lock` is the storage's: one lock for the storage, the loop, the subjects, the mutation stage and the tracker.
    /// None calls out while holding it, so sharing it cannot deadlock, and it saves a heap block per object.
    ///
    /// Compiled once: it runs once per reactor, and specialised, it and the objects' initialisers (the subjects' cores,
    /// their replay buffers, the relay) would be a seventh of a reactor type's optimiser time. Made here, each generic
    /// object costs a run-time lookup of its type, about a third of a microsecond per reactor in all
    /// (`create-reactor`). The action subject's receiver is passed in by the caller, which makes it in the reactor
    /// type's code.
    @usableFromInline @inline(never) @_semantics("optimize.sil.specialize.generic.never")
    init(initialState: R.State, lock: Lock, receiveAction: @escaping ActionSubject<R.Action>.Receive) {
        let actionCore = ActionSubject<R.Action>.makeCore(lock: lock)
        state = StateRelay(lock: lock)
        let loop = ReactorLoop<R>(initialState: initialState, relay: state.core, lock: lock)
        action = ActionSubject(core: actionCore, receiver: loop, receive: receiveAction)
        self.loop = loop
        self.initialState = initialState
        super.init()
    }

    /// The action subject's receiver for a pipeline with a loop: a function that captures nothing, so making it
    /// allocates nothing and calling it retains nothing.
    @inlinable @inline(__always)
    static var loopReceivesActions: ActionSubject<R.Action>.Receive {
        { loop, core, action in unsafeDowncast(loop, to: ReactorLoop<R>.self).receiveFromSubject(action, subject: core) }
    }

    @usableFromInline
    init(stub: Stub<R>) {
        action = stub.action
        state = stub.state
        loop = nil
        initialState = stub.state.value
        super.init()
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
    ///
    /// The code for a stream between stages is reached only where a transform returned a stream of its own. With a
    /// default transform, which the compiler sees returns its input, that code is not made for the reactor type.
    @inlinable
    func wire(_ reactor: R) {
        guard let loop else { return }
        loop.attach(reactorObject: reactor)
        let scheduler = reactor.scheduler

        let actions = reactor.transform(action: action)
        let actionsAreOwn = TransformReturn.isOwn(actions)

        // What `transform(mutation:)` receives: each subscription runs a mutation stage over `actions`.
        // It reaches the reactor through the loop, which refers to it weakly: the input may be kept by the user's
        // transformed stream, which the pipeline keeps.
        let mutationsInput = Self.mutationsInput(loop: loop, actions: actions)
        let transformedMutations = reactor.transform(mutation: mutationsInput)
        let mutationsAreOwn = TransformReturn.isOwn(transformedMutations)

        // What `transform(state:)` receives: the initial state, then each reduced one. The subject behind it is made
        // (by the loop) only if someone subscribes, which the pipeline does only when the transform changed the stream.
        // Its source is this pipeline rather than a copy of the initial state, whose copying every reactor type would
        // carry. The pipeline keeps it only through `subscriptions`, which `dispose()` lets go.
        let statesInput = statesInputForWiring()
        let transformedStates = reactor.transform(state: statesInput)
        let statesAreOwn = TransformReturn.isOwn(transformedStates)

        // What a hook's own stream needs from the reactor type's code, made by `OwnStreams.make` in code specialised
        // for it, so that each of its events runs specialised code. Each `isOwn` is settled by the optimiser for a hook
        // it sees, so a reactor with the default hooks makes none of it: its stages are joined by code compiled once
        // alone.
        let own = OwnStreams<R>.make(loop: loop, relay: state, scheduler: scheduler,
                                     actions: actions, actionsAreOwn: actionsAreOwn, mutationsAreOwn: mutationsAreOwn,
                                     states: transformedStates, statesAreOwn: statesAreOwn)
        joinStages(reactor, loop: loop, scheduler: scheduler, own: own,
                   actions: actions, mutations: transformedMutations, mutationsInput: mutationsInput,
                   states: transformedStates, statesInput: statesInput)
    }

    /// The rest of `wire`, compiled once: it runs once per reactor, and each event then runs only specialised code,
    /// the stages' own or the handlers `wire` made for a hook's own stream (`own`; `nil` when no hook returned one).
    /// A hook that returned its input is skipped; one that returned another stream of its input's class is followed
    /// through code compiled once. When the states go straight to the relay, it publishes the initial state there.
    ///
    /// Whether a hook returned its input is tested here rather than in `wire`: unlike `isOwn`, no branch of the
    /// reactor type's code depends on it, and each test in `wire` was more of that code to optimise.
    @usableFromInline
    func joinStages(_ reactor: R, loop: ReactorLoop<R>, scheduler: ImmediateSchedulerType,
                    own: OwnStreams<R>?, actions: Observable<R.Action>, mutations: Observable<R.Mutation>,
                    mutationsInput: MutationsInput, states: Observable<R.State>, statesInput: StatesInput) {
        let immediate = Self.isImmediate(scheduler)
        let actionsAreInput = actions === action
        let mutationsAreInput = mutations === mutationsInput
        let statesAreInput = states === statesInput
        _ = mutationsInput.settle(start: own?.startMutations
            ?? (mutationsAreInput ? nil : { TransformStarts<R>.mutationStageUnspecialized($0, $1) }))
        // A hook that returned its input unchanged but subscribed to it meanwhile gets the reduced states through it.
        let statesSubscribedEarly = statesInput.settle(start: statesAreInput ? nil : { TransformStarts<R>.reducedStates($0, $1) })
        let statesFused = immediate && statesAreInput && !statesSubscribedEarly
        // The loop is the only sender to either.
        if !statesFused { _ = loop.reducedStates }
        // The loop owns the stage and disposes it with itself.
        let stage = mutationsAreInput ? MutationStage<R>(reactor: reactor, output: .loop(loop), effects: loop) : nil
        loop.configure(stage: stage, statesGoToRelay: statesFused)
        // The relay's first state, when the states go straight to it. No other thread can send an action before it:
        // they wait for `ReactorStorage` to finish building.
        if statesFused { state.core.publishFirstFromSoleSenderUnspecialized(initialState) }
        if let followStates = own?.followStates {
            keep(followStates())
        } else if !statesFused {
            // The default transform with a scheduler that is not immediate, or a hook that subscribed to its input.
            keep(TransformStarts<R>.followUnspecialized(states, scheduler: immediate ? nil : scheduler, relay: state))
        }
        if let stage {
            if let runActions = own?.runActions {
                runActions(stage)
            } else if actionsAreInput {
                loop.takeActionsDirectly()
            } else {
                _ = stage.runUnspecialized(actions)
            }
        } else {
            keep(TransformStarts<R>.follow(mutations, into: own?.receiveMutations ?? { loop.receiveFromStream($0) }))
        }
    }

    /// Whether `scheduler` delivers on the sending thread (the default). Both such schedulers are final classes, so
    /// comparing the exact type is `is`, without a dynamic cast per reactor. Compiled once.
    @usableFromInline @inline(never) @_semantics("optimize.sil.specialize.generic.never")
    static func isImmediate(_ scheduler: ImmediateSchedulerType) -> Bool {
        let schedulerType = ObjectIdentifier(type(of: scheduler))
        return schedulerType == ObjectIdentifier(CurrentThreadScheduler.self)
            || schedulerType == ObjectIdentifier(ImmediateScheduler.self)
    }

    @usableFromInline typealias MutationsSource = (loop: ReactorLoop<R>, actions: Observable<R.Action>)
    @usableFromInline typealias MutationsInput = TransformInput<MutationsSource, R.Mutation>
    @usableFromInline typealias StatesInput = TransformInput<ReactorPipeline<R>, R.State>

    /// What `transform(mutation:)` receives, made in code compiled once. Its type is known to `wire`, which is what
    /// lets the optimiser settle `TransformReturn.isOwn` for a hook that returns its input. Marked so that
    /// cross-module optimisation does not copy it into the app and specialise it there.
    @usableFromInline @inline(never) @_semantics("optimize.sil.specialize.generic.never")
    static func mutationsInput(loop: ReactorLoop<R>, actions: Observable<R.Action>) -> MutationsInput {
        MutationsInput((loop: loop, actions: actions), lock: loop.lock, fallback: { TransformStarts<R>.mutationStageUnspecialized($0, $1) })
    }

    /// What `transform(state:)` receives, made in code compiled once (see `mutationsInput`).
    @usableFromInline @inline(never) @_semantics("optimize.sil.specialize.generic.never")
    func statesInputForWiring() -> StatesInput {
        StatesInput(self, lock: loop.unsafelyUnwrapped.lock, fallback: { TransformStarts<R>.reducedStates($0, $1) })
    }

    /// Keeps `subscription` until the pipeline is disposed. Compiled once: `wire` calls it from several branches.
    @usableFromInline
    func keep(_ subscription: Disposable) {
        subscriptions.append(subscription)
    }

    @usableFromInline
    override package func dispose() {
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

/// Whether a `transform` hook returned a stream of its own rather than a hook input (its own, another reactor's, or
/// an `ActionSubject` the hook made, which take the code compiled once).
///
/// Tested by `kind`, which alone decides whether the specialised code for a stream of the hook's own is reached: with
/// the default hook, the returned stream is the input, whose class the optimiser knows (both input classes are final),
/// so it reads the input's `kind` without a call and settles `isOwn` early in its pipeline, before `OwnStreams.make` is
/// inlined. A dynamic cast (`is`) would settle only late, after the own streams' code was specialised for the reactor
/// type and optimised, only to be found dead; an identity test (`===`) is not folded at all, even of one value with
/// itself.
///
/// So `wire` tests `isOwn` alone, each hook's result by itself: a value merged from several tests (an enum, say) is
/// not folded.
@usableFromInline
enum TransformReturn {
    @inlinable @inline(__always)
    static func isOwn<Element>(_ returned: Observable<Element>) -> Bool {
        returned.kind != .transformInput
    }
}

/// The handlers of the streams the `transform` hooks returned of their own, made by `make` inlined into
/// `ReactorPipeline.wire`'s code specialised for the reactor, and used once by `joinStages`, compiled once. A handler
/// is `nil` when its hook did not return a stream of its own. A class, so that a reactor whose hooks returned none
/// passes one `nil` word.
@usableFromInline
final class OwnStreams<R: Reactor> {
    /// `transform(action:)`'s stream: runs the mutation stage over it.
    @usableFromInline var runActions: ((MutationStage<R>) -> Void)?
    /// `transform(mutation:)`'s stream: how its input starts, and where each of its mutations goes.
    @usableFromInline var startMutations: ((ReactorPipeline<R>.MutationsSource, AnyObserver<R.Mutation>) -> Disposable)?
    @usableFromInline var receiveMutations: ((Event<R.Mutation>) -> Void)?
    /// `transform(state:)`'s stream: followed into the relay.
    @usableFromInline var followStates: (() -> Disposable)?

    @usableFromInline init() {}

    /// The handlers for the hooks that returned a stream of their own, or `nil` when none did.
    ///
    /// Inlined into `wire` late in the optimiser's pipeline, and never specialised as a call: so the optimiser meets
    /// the handlers' closures only once `wire`'s hooks are inlined and each `…AreOwn` is settled. A reactor with the
    /// default hooks then never has them specialised for its type. Written in `wire` itself, they would be specialised
    /// before the hooks are inlined, only to be found dead: about a third of a reactor type's optimiser time
    /// (Benchmarks/README.md lists that alternative).
    @inlinable @inline(__always) @_semantics("inline_late") @_semantics("optimize.sil.specialize.generic.never")
    static func make(loop: ReactorLoop<R>, relay: StateRelay<R.State>, scheduler: ImmediateSchedulerType,
                     actions: Observable<R.Action>, actionsAreOwn: Bool, mutationsAreOwn: Bool,
                     states: Observable<R.State>, statesAreOwn: Bool) -> OwnStreams? {
        let own = actionsAreOwn || mutationsAreOwn || statesAreOwn ? OwnStreams<R>() : nil
        if actionsAreOwn {
            own.unsafelyUnwrapped.runActions = { stage in
                // Its actions go through the action subject, to the loop in the order the stream delivers them.
                _ = stage.run(actions)
            }
        }
        if mutationsAreOwn {
            own.unsafelyUnwrapped.startMutations = { TransformStarts<R>.mutationStage($0, $1) }
            own.unsafelyUnwrapped.receiveMutations = { loop.receiveFromStream($0) }
        }
        if statesAreOwn {
            own.unsafelyUnwrapped.followStates = {
                // Moved to the scheduler here, so that each state crosses specialised code.
                let immediate = ReactorPipeline<R>.isImmediate(scheduler)
                return TransformStarts<R>.follow(immediate ? states : states.observe(on: scheduler)) { event in
                    guard case .next(let state) = event else {
                        return TransformStarts<R>.statesEnded(with: event.error)
                    }
                    relay.acceptFromSoleSender(state)
                }
            }
        }
        return own
    }
}

/// How the streams that the `transform` hooks receive start their work: specialised, for a reactor whose hook returned
/// a stream of its own, and compiled once, for a subscription that comes before that is known (see `TransformInput`).
/// A pipeline they are given has a loop: only `wire` makes the inputs, and it makes none for a stub.
@usableFromInline
enum TransformStarts<R: Reactor> {
    /// One subscription to the stream `transform(mutation:)` receives: a mutation stage over the actions.
    @inlinable
    static func mutationStage(_ source: (loop: ReactorLoop<R>, actions: Observable<R.Action>), _ observer: AnyObserver<R.Mutation>) -> Disposable {
        Sink.running(observer) { sink in
            MutationStage<R>(reactor: source.loop.attachedReactor, output: .observer(.init(SerializedObserver(AnyObserver(sink)).asObserver())),
                             effects: source.loop).run(source.actions)
        }
    }

    // The functions below are compiled once, for what reactors with the default hooks may still reach (see
    // `TransformInput` and `TransformReturn`), or for the setup of a hook's own stream, whose events go to a handler
    // made in `wire`, in code specialised for the reactor: so the setup is not made for every reactor type, and
    // each event still runs specialised code. Without `specialize.generic.never`, cross-module optimisation copies a
    // wrapper this small into the app and specialises it there, bringing back the code they exist to avoid.
    //
    /// Sends every event of `stream`, a hook's own stream of mutations or states, to `receive` (the loop's
    /// `receiveFromStream`, or a handler that hands states to the relay).
    ///
    /// Subscribes with `run`, without a boundary sink: the stream keeps the grammar, the handler reports its end,
    /// and the pipeline disposes the subscription when the reactor dies. A boundary sink made here, in generic code,
    /// would run generic code for every event.
    @usableFromInline @inline(never) @_semantics("optimize.sil.specialize.generic.never")
    static func follow<Element>(_ stream: Observable<Element>, into receive: @escaping (Event<Element>) -> Void) -> Disposable {
        stream.run(AnyObserver(eventHandler: receive))
    }

    /// Reports the end of the stream `transform(state:)` returned; the last state stays current.
    @usableFromInline @inline(never) @_semantics("optimize.sil.specialize.generic.never")
    static func statesEnded(with error: (any Error)?) {
        ReactorLoop<R>.reportStreamEnded(of: "transform(state:)", with: error, afterwards: "the last state stays current")
    }

    @usableFromInline @inline(never) @_semantics("optimize.sil.specialize.generic.never")
    static func mutationStageUnspecialized(_ source: (loop: ReactorLoop<R>, actions: Observable<R.Action>), _ observer: AnyObserver<R.Mutation>) -> Disposable {
        mutationStage(source, observer)
    }

    /// The default `transform(state:)` with a scheduler that is not immediate, or a hook that subscribed to its input
    /// while it ran: the relay follows `states` on `scheduler` (`nil`: immediate), in code compiled once.
    @usableFromInline @inline(never) @_semantics("optimize.sil.specialize.generic.never")
    static func followUnspecialized(_ states: Observable<R.State>, scheduler: ImmediateSchedulerType?, relay: StateRelay<R.State>) -> Disposable {
        (scheduler.map(states.observe(on:)) ?? states).subscribe(
            onNext: { relay.acceptFromSoleSender($0) },
            onError: { statesEnded(with: $0) },
            onCompleted: { statesEnded(with: nil) }
        )
    }

    /// One subscription to the stream `transform(state:)` receives: the initial state, then each reduced one. Once
    /// the pipeline is wired with the states going straight to the relay (the hook returned its input unchanged), it
    /// follows the relay instead: the current state, then each new one.
    ///
    /// `observer` is the subscriber's own (made in its operator's specialised code) and is subscribed to the subject
    /// of reduced states directly, without a sink made here: each state then runs only specialised code, the loop's
    /// publish and the subscriber's handler.
    @usableFromInline @inline(never) @_semantics("optimize.sil.specialize.generic.never")
    static func reducedStates(_ pipeline: ReactorPipeline<R>, _ observer: AnyObserver<R.State>) -> Disposable {
        let loop = pipeline.loop.unsafelyUnwrapped
        if loop.statesGoStraightToRelay { return loop.relay.subscribe(observer) }
        observer.onNext(pipeline.initialState)
        return loop.reducedStates.run(observer)
    }
}
