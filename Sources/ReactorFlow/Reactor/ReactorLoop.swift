/// Runs a reactor's work one item at a time: each action (its `mutate` call) and each mutation (its `reduce` call
/// and the delivery of the new state), in arrival order, each mutation applied to the state the previous one
/// produced (rule B4).
///
/// A mutation that a stream emits while the loop subscribes to that stream, on the loop's own thread, is reduced
/// at once, before the emitting `onNext` returns (rule B5): a later part of the same stream reads a `currentState`
/// that holds it. Other work that arrives while an item runs — from another thread, or reentrantly from `reduce` or
/// a state subscriber — is queued, and the thread already running takes it next (rule B6). No lock is held while
/// user code runs (rule B12). One serializer for actions and mutations means one lock round trip to start and one
/// to finish, however many mutations an action causes.
///
/// `current` belongs to the thread that holds the running role; the role passes between threads under `lock`,
/// which orders every access, so `current` needs no lock of its own.
@usableFromInline
final class ReactorLoop<R: Reactor>: EffectTracker, @unchecked Sendable { // `pending`, `running`, `isDisposed`, `takesActionsDirectly`, `detours`, `inlineOpen` and `inlineBlocked` are guarded by `lock`; `reducingInline` belongs to the thread in the inline window; `current` by the running role; the rest is set by `configure` before any work can arrive
    /// The state the next `reduce` starts from (see `reduce` for how it is read).
    @usableFromInline @exclusivity(unchecked) var current: R.State
    @usableFromInline @exclusivity(unchecked) var pending = FIFO<Work>()
    @usableFromInline @exclusivity(unchecked) var running = false
    @usableFromInline @exclusivity(unchecked) var isDisposed = false
    /// Whether the action subject hands actions straight to this loop (`transform(action:)` and
    /// `transform(mutation:)` are the identity) instead of delivering them to its subscribers.
    @usableFromInline @exclusivity(unchecked) var takesActionsDirectly = false
    /// Whether reduced states go to `relay` rather than to `madeReducedStates` (declared with the other flags, whose
    /// word it shares). False until `configure` says otherwise.
    @usableFromInline @exclusivity(unchecked) var statesGoToRelay = false
    /// Whether the running thread is reducing a mutation it took inline (see `receiveMutation`): a mutation it
    /// sends meanwhile is reentrant, and waits in `pending`.
    @usableFromInline @exclusivity(unchecked) var reducingInline = false
    /// Whether a mutation was queued during this inline window: later ones queue behind it, so that the order
    /// of each stream's mutations is kept.
    @usableFromInline @exclusivity(unchecked) var inlineBlocked = false
    /// Whether the thread that holds the running role is subscribing to a mutation stream (`followInline`): the
    /// stream's synchronous mutations are then reduced inline on that thread, which `InlineWindow` names. A flag
    /// here and the thread's identity in thread-local storage, rather than a thread field, keep the loop one word
    /// smaller: every reactor carries it.
    @usableFromInline @exclusivity(unchecked) var inlineOpen = false

    @usableFromInline @exclusivity(unchecked) weak var reactor: R?
    /// Where actions go when this loop runs them: `nil` when `transform(mutation:)` is not the identity (a mutation
    /// stage then runs inside the user's mutation stream and only mutations reach this loop).
    @usableFromInline @exclusivity(unchecked) var stage: MutationStage<R>?
    /// The state relay's core. Reduced states go here when `transform(state:)` is the identity on an immediate
    /// scheduler, and to `madeReducedStates` otherwise (`configure` says which). This loop is the only sender to
    /// either, so it publishes to the core directly. A constant, so reading it costs no reference counting. Its
    /// lock is this loop's (see `reduce`).
    @usableFromInline let relay: SubjectCore<R.State>

    /// What only a reactor with a transform of its own or another scheduler needs, made on first need.
    @usableFromInline @exclusivity(unchecked) var detours: Detours?

    /// What only some reactors need, boxed, so that the others carry one word for all of it. Its fields are
    /// written holding the loop's `lock`, before the work that reads them can arrive.
    @usableFromInline
    final class Detours {
        /// The subject behind the stream `transform(state:)` receives, made on first use: a pipeline whose state
        /// transform is the identity never makes it.
        @usableFromInline @exclusivity(unchecked) var reducedStates: PublishSubject<R.State>?
        /// How an action that the loop does not take directly reaches the action subject's subscribers once a
        /// transform's own stream subscribes to it: in code specialised for the reactor (`deliverActionsSpecialized`).
        /// Without it, in code compiled once: a reactor with the default transforms sends actions through the
        /// subject only while it is being wired, or when someone else watches it.
        @usableFromInline @exclusivity(unchecked) var forwardAction: ((SubjectCore<R.Action>, R.Action) -> Void)?
        @usableFromInline init() {}
    }

    /// Called holding `lock`.
    @inlinable
    var madeDetoursKeepingLock: Detours { madeIfNeeded(&detours) { Detours() } }

    /// The core of `reducedStates`, for `reduce` when the states do not go to the relay: made by then, and not
    /// changed after (`configure` runs before any work).
    @inlinable
    var reducedStatesCore: SubjectCore<R.State> { detours.unsafelyUnwrapped.reducedStates.unsafelyUnwrapped.core }

    /// Compiled once: it runs once per reactor whose state transform is not fused, and once per subscription to the
    /// stream `transform(state:)` receives.
    @usableFromInline
    var reducedStates: PublishSubject<R.State> {
        lock.withLock {
            let detours = madeDetoursKeepingLock
            if let reducedStates = detours.reducedStates { return reducedStates }
            let created = PublishSubject<R.State>()
            detours.reducedStates = created
            return created
        }
    }

    @inlinable
    init(initialState: R.State, relay: SubjectCore<R.State>, lock: Lock) {
        precondition(relay.lock === lock, "the state relay must share the loop's lock")
        current = initialState
        self.relay = relay
        super.init(lock: lock)
    }

    /// Called first while the pipeline is wired, before the reactor's transforms: what they subscribe to may need
    /// the reactor (see `ReactorPipeline.wire`).
    @inlinable
    func attach(to reactor: R) {
        lock.withLock { self.reactor = reactor }
    }

    /// Called once while the pipeline is wired, before any work can reach the loop.
    @inlinable
    func configure(stage: MutationStage<R>?, statesGoToRelay: Bool) {
        lock.withLock {
            self.stage = stage
            self.statesGoToRelay = statesGoToRelay
        }
    }

    /// Whether the pipeline is wired with the reduced states going straight to the relay, skipping `transform(state:)`.
    var statesGoStraightToRelay: Bool { lock.withLock { statesGoToRelay } }

    /// The reactor, unless it is gone; for code outside the running loop.
    @inlinable
    var attachedReactor: R? { lock.withLock { reactor } }

    /// Called by `wire` only where a transform returned a stream of its own, which subscribes to the action subject:
    /// every action then goes through the subject, in code specialised for the reactor. A reactor with the default
    /// transforms never calls this, so it carries none of that code.
    @inlinable
    func deliverActionsSpecialized() {
        lock.withLock { madeDetoursKeepingLock.forwardAction = { $0.onNext($1) } }
    }

    /// From here on, actions sent to the subject come straight to this loop.
    @inlinable
    func takeActionsDirectly() {
        lock.withLock { takesActionsDirectly = true }
    }

    /// The action subject's receiver: every action sent to `reactor.action` arrives here, with the subject's core
    /// (which shares `lock`).
    @inlinable
    func receiveFromSubject(_ action: R.Action, subject actionSubject: SubjectCore<R.Action>) {
        let token = SendToken.current
        lock.lock()
        guard takesActionsDirectly else {
            // Not wired yet, or the pipeline subscribes to the subject through `transform(action:)`.
            let forward = detours?.forwardAction
            lock.unlock()
            if let forward { forward(actionSubject, action) } else { actionSubject.onNextUnspecialized(action) }
            return
        }
        // Someone else (a logger, a test) subscribed to `reactor.action` too; it gets the action after the loop.
        let watched = !actionSubject.subscriptions.isEmpty || actionSubject.draining
        startOrQueueHoldingLock(.action(action, token))
        if watched { actionSubject.onNextUnspecialized(action) } // a logger, a test: compiled once
    }

    /// A mutation from a stream (a running mutation stream, or the user's `transform(mutation:)`), or the end of
    /// the stream of actions or mutations, which the reactor survives (rule B7b).
    @inlinable
    func receiveFromStream(_ event: Event<R.Mutation>) {
        switch event {
        case .next(let mutation): receiveMutation(mutation)
        case .error(let error): Diagnostics.report(.reactorStreamEnded, error: error, message: "\(R.self).transform(action:) or transform(mutation:) failed; actions are no longer processed, the last state stays current")
        case .completed: Diagnostics.report(.reactorStreamEnded, message: "\(R.self).transform(action:) or transform(mutation:) completed; actions are no longer processed, the last state stays current")
        }
    }

    /// Runs `work` now, or queues it if another item is running.
    @inlinable
    func submit(_ work: Work) {
        lock.lock()
        startOrQueueHoldingLock(work)
    }

    /// Called holding `lock`; returns without it.
    @inlinable
    func startOrQueueHoldingLock(_ work: Work) {
        if isDisposed {
            lock.unlock()
            return drop(work)
        }
        if running {
            pending.append(work)
            lock.unlock()
            return
        }
        running = true
        lock.unlock()
        guard let reactor else { return dropBecauseReactorDied(work) }
        // The reactor stays alive until the queue is empty: its deinitialisation, if this was the last reference,
        // then runs here after the lock is released.
        withExtendedLifetime(reactor) {
            if run(work, reactor: reactor, isLast: true) { return }
            // Whatever arrived meanwhile is taken a batch at a time: one lock round trip per batch rather than per
            // item, which matters when other threads keep sending (they contend for the same lock). Work that
            // arrives while a batch runs waits for the next one, so the order stays the arrival order.
            var batch = FIFO<Work>()
            while true {
                lock.lock()
                if pending.isEmpty {
                    running = false
                    lock.unlock()
                    return
                }
                swap(&pending, &batch)
                lock.unlock()
                var left = batch.count
                for next in batch.elements {
                    left -= 1
                    if run(next, reactor: reactor, isLast: left == 0) { return }
                }
                // Kept for the next swap, so that senders do not grow a fresh queue after every batch.
                batch.removeAllKeepingCapacity()
            }
        }
    }

    /// Drops `work` that comes after the loop was disposed; a stream's end is still counted, so that nobody waits
    /// for that stream forever. Compiled once, like the next: the reactor is gone.
    @usableFromInline
    func drop(_ work: Work) {
        work.countStreamEnd(in: self)
    }

    /// Called by the thread that took the running role and found the reactor gone: drops `work` and what is queued,
    /// and gives the role up.
    @usableFromInline
    func dropBecauseReactorDied(_ work: Work) {
        let dropped = lock.withLock { () -> FIFO<Work> in
            defer { pending = FIFO() }
            running = false
            return pending
        }
        work.countStreamEnd(in: self)
        for item in dropped.elements { item.countStreamEnd(in: self) }
    }

    /// Called only by the thread holding the running role. `isLast` says that no other work is known to follow
    /// (the queue may have grown meanwhile). Returns whether the loop's turn ended inside (see `reduce`): the
    /// running role is then given up, and the caller must not touch the loop's state again.
    ///
    /// Specialised, but never inlined: the loop calls it from two places (the first item and each queued one), and
    /// it holds the reactor's `mutate` and `reduce`, inlined.
    @inlinable @inline(never)
    func run(_ work: Work, reactor: R, isLast: Bool) -> Bool {
        switch work {
        case .action(let action, let token):
            var ended = false
            // Without the reference counting that reading a variable costs: `stage` changes only in `configure` and
            // `dispose`, and neither can run while the loop runs work.
            Unmanaged.passUnretained(stage.unsafelyUnwrapped)._withUnsafeGuaranteedRef { stage in
                stage.receive(action, token: token, reactor: reactor) { mutation, isLastMutation in
                    ended = reduce(mutation, reactor: reactor, isLast: isLast && isLastMutation)
                }
            }
            return ended
        case .mutation(let mutation):
            return reduce(mutation, reactor: reactor, isLast: isLast)
        case .resumeLanes:
            stage?.resumeIdleLanes(reactor: reactor)
        case .streamEnded:
            work.countStreamEnd(in: self)
        }
        return false
    }

    /// Called only by the thread holding the running role.
    ///
    /// When this is the last known work and the new state goes to the relay, whose core shares `lock`, the critical
    /// section that ends the state's delivery also ends the loop's turn if nothing is queued: one lock round trip
    /// per action fewer. Returns whether the turn ended here.
    ///
    /// Specialised, but never inlined: several paths reduce (an action's known mutations, a queued mutation, an
    /// inline one), and each would otherwise carry the reactor's `reduce` and the state's publish again.
    @inlinable @inline(never)
    func reduce(_ mutation: R.Mutation, reactor: R, isLast: Bool) -> Bool {
        // The state is moved out of `current` and the new one moved in: passed to `reduce` and to the relay straight
        // from the field, a state would be copied (its strings and arrays retained and released) for each call, since
        // the compiler cannot know that the user code they run leaves the field alone. Nothing else reads `current`
        // meanwhile: a reentrant action waits in `pending` for this turn.
        withUnsafeMutablePointer(to: &current) { current in
            let previous = current.move()
            let state = reactor.reduce(state: previous, mutation: mutation)
            // One path for both destinations, so that a reactor type carries the release of what a publish leaves
            // once: the relay shares `lock`, the subject behind `transform(state:)` has a lock of its own. The
            // subject's replay buffer gets a copy made here, from the value `reduce` just returned.
            let leftovers = statesGoToRelay
                ? relay.publishFromSoleSenderKeepingLock(state, kept: state)
                : reducedStatesCore.publishFromSoleSenderKeepingLock(state, kept: state)
            current.initialize(to: state) // before the turn can pass to another thread
            // `pending` and `running` are read only holding `lock`, which the relay's publish returned with.
            let idle = isLast && statesGoToRelay && pending.isEmpty
            if idle { running = false }
            if statesGoToRelay {
                lock.unlock()
            } else {
                reducedStatesCore.lock.unlock()
            }
            // The previous state dies after the lock (see `SubjectCore.publishFromSoleSender`).
            withExtendedLifetime((leftovers, previous)) {}
            return idle
        }
    }

    /// Drops queued work; work sent later is ignored (the reactor is gone). Disposes the stage, which disposes the
    /// mutation streams still running (rule B9), and releases it (its streams refer back to this loop).
    ///
    /// Called from the reactor's deinitialisation, so no thread is running work (running work holds the reactor).
    @usableFromInline
    func dispose() {
        let (stage, dropped) = lock.withLock { () -> (MutationStage<R>?, FIFO<Work>) in
            isDisposed = true
            takesActionsDirectly = false
            defer {
                self.stage = nil
                pending = FIFO()
            }
            return (self.stage, pending)
        }
        if !dropped.isEmpty { // iterating runs unspecialised here, at a cost even when empty
            for item in dropped.elements { item.countStreamEnd(in: self) }
        }
        stage?.dispose()
    }
}
