/// Turns each action into its mutation stream and merges them: a `flatMap` specialised for the reactor, with the
/// per-action `EffectPolicy` applied.
///
/// A `just` stream under `.merge`, the common case, is applied without a subscription. Other streams get one small
/// observer each; an error ends only that stream and is reported (rule B7). Disposing the stage disposes every
/// stream still running (rule B9) and drops queued actions.
@usableFromInline
final class MutationStage<R: Reactor>: Disposable, @unchecked Sendable { // `lanes`, `streams` and flags are guarded by `lock`
    @usableFromInline
    struct Lane {
        @usableFromInline var running: [RunningStream] = []
        @usableFromInline var queued = FIFO<(action: R.Action, token: SendToken?)>()
        @inlinable init() {}
    }

    /// Set only by the initialiser, so reading it needs no exclusivity check (a weak load is safe from any thread).
    @usableFromInline @exclusivity(unchecked) weak var reactor: R?
    /// Where the mutations of streams that are not known up front go.
    @usableFromInline
    enum Output {
        /// Straight to the reactor's loop (`transform(mutation:)` is the identity): no observer to allocate.
        case loop(ReactorLoop<R>)
        /// Into the user's `transform(mutation:)` stream; boxed, so the common case does not carry its four words.
        case observer(ObserverBox)
    }

    @usableFromInline
    final class ObserverBox {
        @usableFromInline let observer: AnyObserver<R.Mutation>
        /// `observer.on(.next(_:))`, made where the box is (in code specialised for a reactor whose
        /// `transform(mutation:)` returned a stream of its own), for a running stream's mutations: called, it takes the
        /// mutation by address, so a stream's observer, which every reactor type carries, does not carry making the
        /// event as well. It captures the observer, a heap block per such stage: a closure that captured nothing and
        /// took the box instead cost every reactor type 0.3% more of the compiler's work.
        @usableFromInline let onNext: (R.Mutation) -> Void
        /// Takes this stage's turns, as the loop does for a joined stage: the actions from the stream and a lane's
        /// hand-off to its next queued action, one at a time, so `mutate` never runs beside itself. Set by `run`
        /// before the stage can receive anything.
        @usableFromInline var turns: SerializedObserver<ReactorLoop<R>.Work>?
        @inlinable init(_ observer: AnyObserver<R.Mutation>) {
            self.observer = observer
            onNext = { observer.on(.next($0)) }
        }
    }

    @usableFromInline let output: Output
    @usableFromInline let effects: EffectTracker
    /// The tracker's, which is the pipeline's: no field of its own (a stage is made per reactor).
    @inlinable var lock: Lock { effects.lock }
    /// Of every reactor type the same dictionary type, so an app carries its code once (see `RunningStream`).
    @usableFromInline @exclusivity(unchecked) var streams: [ObjectIdentifier: RunningStream] = [:]
    /// Made empty without a literal: `[:]` would make every reactor type carry `init(dictionaryLiteral:)`.
    @usableFromInline @exclusivity(unchecked) var lanes = [AnyHashable: Lane]()
    @usableFromInline @exclusivity(unchecked) var sourceCompleted = false
    @usableFromInline @exclusivity(unchecked) var disposed = false
    /// The subscription to the actions, once `run` made it; held in a one-word reference rather than a five-word
    /// existential, since the reactor's own stage, the common one, never has one.
    @usableFromInline @exclusivity(unchecked) var actionSubscription: SingleAssignmentDisposable?

    /// `output` must accept events from several threads: the reactor's loop does, and so does a
    /// `SerializedObserver`. A loop holds the stage until the loop is disposed, which breaks the cycle.
    ///
    /// The stage locks its tracker's lock (the pipeline's), shared with other objects that, like it, never call out
    /// while holding it.
    @inlinable
    init(reactor: R?, output: Output, effects: EffectTracker) {
        self.reactor = reactor
        self.output = output
        self.effects = effects
    }

    /// Subscribes to `actions`; each is received in this stage's turn (see `takeTurn`).
    @inlinable
    func run(_ actions: Observable<R.Action>) -> Disposable {
        if case .observer(let box) = output {
            // Weak: the stage owns the box, which owns this.
            box.turns = SerializedObserver(AnyObserver { [weak self] event in
                guard let self, case .next(let work) = event else { return }
                // Counted even when the reactor is gone, so nobody waits forever.
                if case .streamEnded(let token) = work { effects.streamEnded(token: token) }
                guard let reactor = self.reactor else { return }
                switch work {
                case .action(let action, let token):
                    let stage = Unmanaged.passUnretained(self)
                    Self.receive(action, token: token, reactor: reactor, stage: stage) { mutation, _ in self.emitNext(mutation) }
                case .resumeLanes: resumeIdleLanes(reactor: reactor)
                case .mutation, .streamEnded: break // mutations go to the loop only; a stream's end is counted above
                }
            })
        }
        let observer = AnyObserver<R.Action> { [self] event in
            guard case .next(let action) = event else { return actionsEnded(with: event.error) }
            takeTurn(forAction: action)
        }
        return subscribeToActions(actions, observer: observer, onNext: { [self] action in takeTurn(forAction: action) })
    }

    /// An action from the stream `run` follows, received in this stage's next turn with the sender's token.
    @inlinable @inline(__always)
    func takeTurn(forAction action: R.Action) {
        takeTurn(.action(action, SendToken.current))
    }

    /// `run`'s subscription to `actions`, compiled once: it runs once per stage, and only hands on the handlers `run`
    /// made, specialised. Over the action subject (the stream `transform(mutation:)` receives is made of it), each
    /// action comes to `onNext`, by address: the subject's delivery is compiled once (`SubjectCore.onNextUnspecialized`),
    /// where an event made for `observer` would have its type looked up at run time.
    @usableFromInline @inline(never) @_semantics("optimize.sil.specialize.generic.never")
    func subscribeToActions(_ actions: Observable<R.Action>, observer: AnyObserver<R.Action>, onNext: @escaping (R.Action) -> Void) -> Disposable {
        let subscription = if let core = actions.subjectCore {
            core.subscribe(observer, onNext: onNext)
        } else {
            actions.run(observer)
        }
        let held = SingleAssignmentDisposable()
        held.setDisposable(subscription)
        let alreadyDisposed = lock.withLock { () -> Bool in
            if !disposed { actionSubscription = held }
            return disposed
        }
        if alreadyDisposed { held.dispose() }
        return self
    }

    /// The stream of actions ended: its error ends the output; its completion does once no stream runs. Compiled
    /// once: it runs at most once per stage.
    @usableFromInline @inline(never) @_semantics("optimize.sil.specialize.generic.never")
    func actionsEnded(with error: (any Error)?) {
        if let error { return emit(.error(error)) }
        let done = lock.withLock { () -> Bool in
            sourceCompleted = true
            return streams.isEmpty
        }
        if done { emit(.completed) }
    }

    /// `run`, compiled once (see `TransformReturn`).
    @usableFromInline @inline(never) @_semantics("optimize.sil.specialize.generic.never")
    func runUnspecialized(_ actions: Observable<R.Action>) -> Disposable {
        run(actions)
    }

    /// Stops taking actions, then disposes every stream still running (rule B9) and drops queued actions.
    @usableFromInline
    func dispose() {
        let subscription = lock.withLock { () -> SingleAssignmentDisposable? in
            defer { actionSubscription = nil }
            return actionSubscription
        }
        subscription?.dispose()
        disposeStreams()
    }

    /// Calls `mutate` for `action` and runs its stream under the action's policy. Mutations known without
    /// subscribing (a `just`, a `concat` of `just`s, under `.merge`) go to `applyNow`, in order, before this returns,
    /// each with whether it is the last: nothing of this stage runs after `applyNow` is given the last one, which
    /// lets the reactor's loop end its turn inside that call.
    ///
    /// Only a `just` under `.merge`, the commonest case, is handled inline; the rest is specialised but never
    /// inlined, so that every reactor type carries it once rather than at each place the loop runs an action.
    ///
    /// Static, with the stage passed unretained: the loop's turn reads its stage without reference counting, and
    /// the common case does not touch the stage at all. (Calling a method on the stage through
    /// `Unmanaged._withUnsafeGuaranteedRef` would need a closure around this whole path, which the optimiser would
    /// make and optimise for every reactor type before inlining it.)
    @inlinable @inline(__always)
    static func receive(_ action: R.Action, token: SendToken?, reactor: R, stage: Unmanaged<MutationStage>,
                        applyNow: (_ mutation: R.Mutation, _ isLast: Bool) -> Void) {
        token?.claim()
        let policy = reactor.effectPolicy(for: action)
        guard policy.kind == .merge else {
            return enterLane(action, token: token, reactor: reactor, policy: policy, stage: stage)
        }
        // The common case, so it avoids the lane key (an `AnyHashable?` costs value-witness calls to copy).
        let stream = reactor.mutate(action: action)
        // `kind`, not `as?`: see `Observable.kind`.
        guard stream.kind == .just else {
            return receiveMerged(stream, for: action, token: token, stage: stage, applyNow: applyNow)
        }
        applyNow(Just.element(of: stream), true)
    }

    /// `receive` for a stream under `.merge` that is not a `just`: what subscribing would do, synchronously and in
    /// order, without the subscription when its mutations are known (a `concat` of `just`s), in code compiled once
    /// (see `Observable.forEachKnownElement`); otherwise the stream is followed.
    @inlinable @inline(never)
    static func receiveMerged(_ stream: Observable<R.Mutation>, for action: R.Action, token: SendToken?,
                              stage: Unmanaged<MutationStage>, applyNow: (_ mutation: R.Mutation, _ isLast: Bool) -> Void) {
        guard stream.forEachKnownElement(applyNow) else {
            return stage.takeUnretainedValue().follow(stream, for: action, lane: nil, token: token)
        }
    }

    /// The call of `receiveInLane`, inlined into `receive` late in the optimiser's pipeline and never specialised as a
    /// call, so that the optimiser meets `receiveInLane` only after the reactor's `effectPolicy(for:)` is inlined: with
    /// the default policy, the branch that calls it is gone by then, and the reactor type carries none of the lane
    /// code (see `OwnStreams.make`, made the same way).
    @inlinable @inline(__always) @_semantics("inline_late") @_semantics("optimize.sil.specialize.generic.never")
    static func enterLane(_ action: R.Action, token: SendToken?, reactor: R, policy: EffectPolicy,
                          stage: Unmanaged<MutationStage>) {
        stage.takeUnretainedValue().receiveInLane(action, token: token, reactor: reactor, policy: policy)
    }

    /// `receive` for an action whose policy is not `.merge`.
    @inlinable @inline(never)
    func receiveInLane(_ action: R.Action, token: SendToken?, reactor: R, policy: EffectPolicy) {
        let key = laneKey(for: action, policy: policy)
        let (proceed, cancelled) = admit(action, token: token, policy: policy, lane: key)
        for stream in cancelled {
            stream.subscription.dispose()
            effects.streamEnded(token: stream.token)
        }
        if proceed { follow(reactor.mutate(action: action), for: action, lane: key, token: token) }
    }

    /// Applies `policy` to `action` in its lane: whether its stream starts now, and the streams it cancels
    /// (`.latest`), for the caller to dispose after the lock. A queued `.serial` action is started later by
    /// `resumeIdleLanes`. Compiled once, unspecialised: the lanes' bookkeeping is large, and an action with a
    /// policy other than `.merge` already pays for a lane key.
    @usableFromInline
    func admit(_ action: R.Action, token: SendToken?, policy: EffectPolicy, lane key: AnyHashable) -> (proceed: Bool, cancelled: [RunningStream]) {
        var cancelled: [RunningStream] = []
        let proceed = lock.withLock { () -> Bool in
            // A lane with queued actions is busy even between two of its streams, so a newcomer waits its turn.
            let busy = !(lanes[key]?.running.isEmpty ?? true) || !(lanes[key]?.queued.isEmpty ?? true)
            switch policy.kind {
            case .merge:
                return true
            case .latest:
                cancelled = lanes[key]?.running ?? []
                lanes[key]?.running = []
                for stream in cancelled { streams[ObjectIdentifier(stream)] = nil }
                return true
            case .first:
                return !busy
            case .serial:
                if busy {
                    token?.streamStarted()
                    lanes[key, default: Lane()].queued.append((action, token))
                    return false
                }
                return true
            }
        }
        return (proceed, cancelled)
    }

    /// Subscribes to the mutation stream of `action`, counted in `lane` if it has one. Only making the stream's
    /// observer is specialised (its handler runs for each of the stream's events); the rest runs once per stream, in
    /// code compiled once (`subscribe(_:with:as:)`). Never inlined: its callers (a stream under `.merge`, a lane's,
    /// a queued one) share one copy.
    @inlinable @inline(never)
    func follow(_ stream: Observable<R.Mutation>, for action: R.Action, lane: AnyHashable?, token: SendToken?) {
        let observer = MutationStream(stage: self, action: action, lane: lane, token: token)
        // A closure literal rather than `AnyObserver(observer)`, whose casts and method reference are three more
        // functions for every reactor type.
        subscribe(stream, with: observer, as: AnyObserver(eventHandler: { observer.on($0) }))
    }

    /// `follow`'s subscription, compiled once: counts `observer` as running (unless this stage was disposed), then
    /// subscribes it to `stream` through `run`, rather than `subscribeInside`, whose inlined path for a subject would
    /// make every reactor type carry a subject subscription for its mutations. It looks up no type at run time.
    @usableFromInline @inline(never) @_semantics("optimize.sil.specialize.generic.never")
    func subscribe(_ stream: Observable<R.Mutation>, with observer: MutationStream<R>, as handler: AnyObserver<R.Mutation>) {
        guard register(observer, lane: observer.lane, token: observer.token) else { return }
        let subscribe = { observer.subscription.setDisposable(stream.run(handler)) }
        if case .loop(let loop) = output {
            // This runs in the loop's turn: what the stream emits while it is subscribed is reduced at once (B5).
            loop.followInline(subscribe)
        } else {
            subscribe()
        }
    }

    /// Counts `stream` as running (in `lane`, if it has one), unless this stage was disposed. Compiled once: the
    /// bookkeeping holds streams as `RunningStream`, the same for every reactor type.
    @usableFromInline
    func register(_ stream: RunningStream, lane: AnyHashable?, token: SendToken?) -> Bool {
        let registered = lock.withLock { () -> Bool in
            guard !disposed else { return false }
            streams[ObjectIdentifier(stream)] = stream
            if let lane { joinLaneHoldingLock(stream, lane: lane) }
            return true
        }
        guard registered else { return false }
        effects.started()
        token?.streamStarted()
        return true
    }

    /// Called holding `lock`: counts `stream` among `lane`'s running streams. Compiled once, unspecialised: only
    /// actions with a policy other than `.merge` have a lane.
    @usableFromInline
    func joinLaneHoldingLock(_ stream: RunningStream, lane: AnyHashable) {
        lanes[lane, default: Lane()].running.append(stream)
    }

    /// A mutation from one of this stage's streams, unless that stream was cancelled (`.latest`) and sends anyway.
    @inlinable @inline(__always)
    func forward(_ mutation: R.Mutation, from stream: MutationStream<R>) {
        guard isRunning(stream) else { return }
        switch output {
        case .loop(let loop): loop.receiveMutation(mutation)
        case .observer(let box): Self.forwardUnspecialized(mutation, to: box)
        }
    }

    /// `forward` into the user's `transform(mutation:)` stream, compiled once: the box's `onNext` was made for the
    /// reactor type, so this looks up no type at run time, and a stream's observer, which every reactor type carries,
    /// carries none of it.
    @usableFromInline @inline(never) @_semantics("optimize.sil.specialize.generic.never")
    static func forwardUnspecialized(_ mutation: R.Mutation, to box: ObserverBox) {
        box.onNext(mutation)
    }

    /// Whether `stream` still counts as running. Compiled once, unspecialised: the bookkeeping is the same for every
    /// reactor type (see `RunningStream`).
    @usableFromInline @inline(never) @_semantics("optimize.sil.specialize.generic.never")
    func isRunning(_ stream: RunningStream) -> Bool {
        lock.withLock { streams[ObjectIdentifier(stream)] != nil }
    }

    /// `emit(.next(mutation))`, with no event made for the loop, which takes the mutation as it is.
    @inlinable @inline(__always)
    func emitNext(_ mutation: R.Mutation) {
        switch output {
        case .loop(let loop): loop.receiveMutation(mutation)
        case .observer(let box): box.observer.on(.next(mutation))
        }
    }

    @inlinable
    func emit(_ event: Event<R.Mutation>) {
        switch output {
        case .loop(let loop): loop.receiveFromStream(event)
        case .observer(let box): box.observer.on(event)
        }
    }

    @usableFromInline
    func finished(_ stream: MutationStream<R>, error: (any Error)?) {
        if let error {
            Diagnostics.report(.mutationFailed, error: error, message: "\(R.self).mutate(action: \(stream.action))")
        }
        // A lane's next queued action is started in this stage's next turn (`resumeIdleLanes`), so that its `mutate`
        // never runs beside another action's: this stream may have ended on any thread.
        var laneWaits = false
        let (removed, done) = lock.withLock { () -> (Bool, Bool) in
            let removed = streams.removeValue(forKey: ObjectIdentifier(stream)) != nil
            if removed, let lane = stream.lane {
                lanes[lane]?.running.removeAll { $0 === stream }
                laneWaits = lanes[lane]?.running.isEmpty == true && lanes[lane]?.queued.isEmpty == false
            }
            return (removed, removed && !laneWaits && sourceCompleted && streams.isEmpty)
        }
        stream.subscription.dispose()
        if removed {
            // Counted finished in this stage's turn: in the reactor's loop, that comes after the mutations this stream
            // sent before it ended, which may still be queued there (another thread is running the loop), so `send`
            // and `waitUntilIdle` return with them reduced. In the loop without a work item, whose type this code,
            // compiled once, would look up at run time.
            if case .loop(let loop) = output {
                loop.submitStreamEnded(token: stream.token)
            } else {
                takeStreamEndedTurn(stream.token)
            }
        }
        if laneWaits { takeResumeLanesTurn() }
        if done { emitCompleted() }
    }

    // The rare ends of `finished`, each in a function of its own: made in `finished`, a work item or an event is a
    // type that code compiled once looks up at run time, and the look-up would be made on every call, taken or not.

    @inline(never)
    private func takeStreamEndedTurn(_ token: SendToken?) {
        takeTurn(.streamEnded(token))
    }

    @inline(never)
    private func takeResumeLanesTurn() {
        takeTurn(.resumeLanes)
    }

    @inline(never)
    private func emitCompleted() {
        emit(.completed)
    }

    /// Queues `work` for this stage's next turn: the reactor's loop, which this stage feeds, or the stage's own
    /// serializer when it runs inside a custom `transform(mutation:)`. Specialised, but never inlined: each of its
    /// callers would otherwise carry the loop's `submit`.
    @inlinable @inline(never)
    func takeTurn(_ work: ReactorLoop<R>.Work) {
        switch output {
        case .loop(let loop): loop.submit(work)
        case .observer(let box): box.turns?.onNext(work)
        }
    }

    /// Starts the next queued action of every lane that has nothing running; called in this stage's turn.
    /// Compiled once, unspecialised: only `.serial` actions that had to wait come here.
    @usableFromInline
    func resumeIdleLanes(reactor: R) {
        let ready = lock.withLock { () -> [(lane: AnyHashable, action: R.Action, token: SendToken?)] in
            let idle = lanes.compactMap { key, lane in lane.running.isEmpty && !lane.queued.isEmpty ? key : nil }
            return idle.compactMap { key in lanes[key]?.queued.popFirst().map { (key, $0.action, $0.token) } }
        }
        for item in ready {
            follow(reactor.mutate(action: item.action), for: item.action, lane: item.lane, token: item.token)
            item.token?.streamFinished() // the queued placeholder; `follow` counted the real stream
        }
    }

    @usableFromInline
    func disposeStreams() {
        let (running, queuedTokens) = lock.withLock { () -> ([RunningStream], [SendToken]) in
            disposed = true
            // Usually nothing runs when a reactor goes away; this runs unspecialised, where copying out even empty
            // collections costs thousands of instructions in the runtime's generic metadata lookups.
            guard !streams.isEmpty || !lanes.isEmpty else { return ([], []) }
            let running = Array(streams.values)
            let queued = lanes.values.flatMap { lane in lane.queued.elements.compactMap(\.token) }
            streams = [:]
            lanes = [:]
            return (running, queued)
        }
        for stream in running {
            stream.subscription.dispose()
            effects.streamEnded(token: stream.token)
        }
        for token in queuedTokens { token.streamFinished() }
    }
}
