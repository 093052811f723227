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
final class ReactorLoop<R: Reactor>: ReactorLoopCore, @unchecked Sendable { // the flags and the queue are guarded by `lock` (see `ReactorLoopCore`); `current` by the running role; the rest is set by `configure` before any work can arrive
    /// The state the next `reduce` starts from (see `reduce` for how it is read).
    @usableFromInline @exclusivity(unchecked) var current: R.State

    /// The reactor, unless it is gone. (Not `Optional.map`, whose closure is one more function per reactor type.)
    @inlinable @inline(__always) var reactor: R? {
        guard let object = reactorObject else { return nil }
        return unsafeDowncast(object, to: R.self)
    }

    /// Where actions go when this loop runs them: `nil` when `transform(mutation:)` is not the identity (a mutation
    /// stage then runs inside the user's mutation stream and only mutations reach this loop).
    @usableFromInline @exclusivity(unchecked) var stage: MutationStage<R>?
    /// The state relay's core. Reduced states go here when `transform(state:)` is the identity on an immediate
    /// scheduler, and to `madeReducedStates` otherwise (`configure` says which). This loop is the only sender to
    /// either, so it publishes to the core directly. A constant, so reading it costs no reference counting. Its
    /// lock is this loop's (see `reduce`).
    @usableFromInline let relay: SubjectCore<R.State>

    /// The subject behind the stream `transform(state:)` receives, made on first use (see `reducedStates`): a
    /// pipeline whose state transform is the identity on an immediate scheduler never makes it. Guarded by `lock`.
    @usableFromInline @exclusivity(unchecked) var madeReducedStates: PublishSubject<R.State>?

    /// The core of `reducedStates`, for `reduce` when the states do not go to the relay: made by then, and not
    /// changed after (`configure` runs before any work).
    @inlinable @inline(__always)
    var reducedStatesCore: SubjectCore<R.State> { madeReducedStates.unsafelyUnwrapped.core }

    /// Compiled once: it runs once per reactor whose state transform is not fused, and once per subscription to the
    /// stream `transform(state:)` receives.
    @usableFromInline
    var reducedStates: PublishSubject<R.State> {
        lock.withLock { madeIfNeeded(&madeReducedStates) { PublishSubject<R.State>() } }
    }

    /// Compiled once, unspecialised: the caller allocates the loop with its type at hand, and setting the fields looks
    /// up no type at run time. (A subject's initialiser stays specialised: compiled once, it looked up its replay
    /// buffer's type to make one, 0.2 µs per reactor.)
    @usableFromInline @inline(never) @_semantics("optimize.sil.specialize.generic.never")
    init(initialState: R.State, relay: SubjectCore<R.State>, lock: Lock) {
        precondition(relay.lock === lock, "the state relay must share the loop's lock")
        current = initialState
        self.relay = relay
        super.init(lock: lock)
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
        guard takesActionsDirectly else { return forwardThenUnlock(action, to: actionSubject) }
        // Someone else (a logger, a test) subscribed to `reactor.action` too; it gets the action after the loop.
        let watched = !actionSubject.subscriptions.isEmpty || actionSubject.draining
        startOrQueueHoldingLock(.action(action, token))
        if watched { actionSubject.onNextUnspecialized(action) } // a logger, a test: compiled once
    }

    /// Called holding `lock` with an action the loop does not take directly (not wired yet, or a transform returned
    /// a stream of its own, which subscribes to the subject): sends it through the subject, and returns without the
    /// lock. Compiled once, unspecialised, as the subject's delivery is (see `SubjectCore.onNextUnspecialized`).
    @usableFromInline @inline(never) @_semantics("optimize.sil.specialize.generic.never")
    func forwardThenUnlock(_ action: R.Action, to actionSubject: SubjectCore<R.Action>) {
        lock.unlock()
        actionSubject.onNextUnspecialized(action)
    }

    /// A mutation from a stream (a running mutation stream, or the user's `transform(mutation:)`), or the end of
    /// the stream of actions or mutations, which the reactor survives (rule B7b).
    @inlinable
    func receiveFromStream(_ event: Event<R.Mutation>) {
        guard case .next(let mutation) = event else { return Self.reportStreamEnded(with: event.error) }
        receiveMutation(mutation)
    }

    /// Reports the end of the stream of actions or mutations.
    @usableFromInline @inline(never) @_semantics("optimize.sil.specialize.generic.never")
    static func reportStreamEnded(with error: (any Error)?) {
        reportStreamEnded(of: "transform(action:) or transform(mutation:)", with: error,
                          afterwards: "actions are no longer processed, the last state stays current")
    }

    /// Reports the end of a stream that the reactor survives (rule B7b): the stream of actions or mutations, or
    /// `transform(state:)`'s. Compiled once: it runs at most once per reactor, and its messages would otherwise be
    /// formatted in every reactor type's code.
    @usableFromInline @inline(never) @_semantics("optimize.sil.specialize.generic.never")
    static func reportStreamEnded(of hooks: String, with error: (any Error)?, afterwards: String) {
        if let error {
            Diagnostics.report(.reactorStreamEnded, error: error, message: "\(R.self).\(hooks) failed; \(afterwards)")
        } else {
            Diagnostics.report(.reactorStreamEnded, message: "\(R.self).\(hooks) completed; \(afterwards)")
        }
    }

    /// Runs `work` now, or queues it if another item is running. A stream's end and a lane's hand-off come from
    /// code compiled once, and are queued alone (see `QueuedSpecial`).
    @inlinable
    func submit(_ work: Work) {
        switch work {
        case .action, .mutation:
            lock.lock()
            startOrQueueHoldingLock(work)
        case .streamEnded, .resumeLanes:
            submitSpecial(work, runItem: Self.runItemEntry)
        }
    }

    /// `submit(.streamEnded(token))` without making the work item, for code compiled once (a mutation stream's end),
    /// where making it and taking it apart would each look up its type at run time.
    @usableFromInline @inline(never) @_semantics("optimize.sil.specialize.generic.never")
    func submitStreamEnded(token: SendToken?) {
        submit(QueuedSpecial { loop, _ in loop.streamEnded(token: token) }, runItem: Self.runItemEntry)
    }

    /// `submit` for a stream's end or a lane's hand-off, which only code compiled once sends: compiled once too, so
    /// that the reactor type's code does not carry the item that queues it alone (see `QueuedSpecial`).
    @usableFromInline @inline(never) @_semantics("optimize.sil.specialize.generic.never")
    func submitSpecial(_ work: Work, runItem: RunItem) {
        submit(QueuedSpecial { loop, reactor in
            withUnsafeTemporaryAllocation(of: Work.self, capacity: 1) { slot in
                let item = slot.baseAddress.unsafelyUnwrapped
                item.initialize(to: work)
                Self.runQueued(item, in: loop, reactor: reactor)
            }
        }, runItem: runItem)
    }

    /// Called holding `lock`; returns without it. Work that finds the loop idle runs here, in code specialised for
    /// the reactor; work that must wait is queued for the loop compiled once (`ReactorLoopCore`).
    ///
    /// `work` is taken rather than borrowed, here, in `queueHoldingLock` and in `run`: it is moved into its queue slot,
    /// or into `run`, whose switch moves the payloads out. Borrowed, each would be copied, a retain of the payloads'
    /// objects (the action's `send(_:)` token, a mutation's strings) and a release later: about 45 instructions more
    /// per `pulse` action, 11 per `counter` action, and 0.7% more of the compiler's work per reactor type.
    @inlinable
    func startOrQueueHoldingLock(_ work: consuming Work) {
        guard !running && !isDisposed else { return queueHoldingLock(work) }
        running = true
        lock.unlock()
        guard let reactor else {
            countStreamEnd(of: work)
            return dropBecauseReactorDied(runItem: Self.runItemEntry)
        }
        if !run(work, reactor: reactor, isLast: true) {
            runQueued(reactor: reactor, runItem: Self.runItemEntry)
        }
        // The reactor stays alive until the queue is empty: its deinitialisation, if this was the last reference,
        // then runs here after the lock is released. (Not a closure around the turn: a closure is one more function
        // for the optimiser to make and inline for every reactor type; `_fixLifetime`, unlike `withExtendedLifetime`,
        // is inlined as it is parsed, so it is not one more function to specialise either.)
        _fixLifetime(reactor)
    }

    /// Called holding `lock` when the loop is running or disposed: queues `work`, or drops it if the loop was
    /// disposed. Returns without the lock. Specialised, but never inlined: each reactor type carries it once.
    @inlinable @inline(never)
    func queueHoldingLock(_ work: consuming Work) {
        if isDisposed {
            lock.unlock()
            return countStreamEnd(of: work)
        }
        slotHoldingLock(stride: MemoryLayout<Work>.stride, alignment: MemoryLayout<Work>.alignment)
            .initializeMemory(as: Work.self, to: consume work)
        lock.unlock()
    }

    /// The `runItem` of this reactor type, as the value the compiled-once loop takes: moves the item out of its slot
    /// and runs it (see `ReactorLoopCore.RunItem`). One closure for every place that passes it, where a closure or a
    /// method reference at each place (or a function between it and `runQueued`) is one more function per reactor
    /// type to optimise.
    @inlinable @inline(__always)
    static var runItemEntry: RunItem {
        { item, loop, reactor in runQueued(item.assumingMemoryBound(to: Work.self), in: loop, reactor: reactor) }
    }

    /// Moves the work at `item` out and runs it in the loop's turn; without a reactor, drops it: a stream's end is
    /// still counted, so that nobody waits for that stream forever. A queued item never ends the turn itself (see
    /// `ReactorLoopCore.runQueued`).
    ///
    /// Moved out of its slot inside the closure that holds the reactor, where `run` takes it: moved out before, it
    /// would be copied into the closure (a retain of its payloads' objects) and destroyed after.
    @inlinable @inline(__always)
    static func runQueued(_ item: UnsafeMutablePointer<Work>, in loop: ReactorLoopCore, reactor: Unmanaged<AnyObject>?) {
        let loop = unsafeDowncast(loop, to: ReactorLoop<R>.self)
        guard let reactor else { return loop.countStreamEnd(of: item.move()) }
        _ = reactor._withUnsafeGuaranteedRef { reactor in
            loop.run(item.move(), reactor: unsafeDowncast(reactor, to: R.self), isLast: false)
        }
    }

    /// Counts `work` finished if it is a stream's end (for `send(_:)` and `waitUntilIdle()`); does nothing for other
    /// work. For work dropped because the loop was disposed or the reactor is gone, so that nobody waits for that
    /// stream forever. Compiled once, as those paths are rare, and a method of the loop, whose type arguments come
    /// with it: a static function's callers would pass the work's type, a constant that differs for each reactor type
    /// and keeps LLVM from merging their code across types.
    @usableFromInline @inline(never) @_semantics("optimize.sil.specialize.generic.never")
    func countStreamEnd(of work: Work) {
        guard case .streamEnded(let token) = work else { return }
        streamEnded(token: token)
    }

    /// Called only by the thread holding the running role. `isLast` says that no other work is known to follow
    /// (the queue may have grown meanwhile). Returns whether the loop's turn ended inside (see `reduce`): the
    /// running role is then given up, and the caller must not touch the loop's state again.
    ///
    /// Specialised, but never inlined: the loop calls it from two places (the first item and each queued one), and
    /// it holds the reactor's `mutate` and `reduce`, inlined.
    @inlinable @inline(never)
    func run(_ work: consuming Work, reactor: R, isLast: Bool) -> Bool {
        switch consume work {
        case .action(let action, let token):
            var ended = false
            // Unretained, without the reference counting that reading a variable costs: `stage` changes only in
            // `configure` and `dispose`, and neither can run while the loop runs work.
            let unretainedStage = Unmanaged.passUnretained(stage.unsafelyUnwrapped)
            MutationStage.receive(action, token: token, reactor: reactor, stage: unretainedStage) { mutation, isLastMutation in
                ended = reduce(mutation, reactor: reactor, isLast: isLast && isLastMutation)
            }
            return ended
        case .mutation(let mutation):
            return reduce(mutation, reactor: reactor, isLast: isLast)
        case .resumeLanes:
            stage?.resumeIdleLanes(reactor: reactor)
        case .streamEnded(let token):
            streamEnded(token: token)
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
        let ended = reduce(mutation, reactor: reactor, isLast: isLast, into: &current)
        // Keeps `reactor` a live argument when the user's `reduce` ignores `self`: a dead one makes the optimiser copy
        // this function without it, and optimise both.
        _fixLifetime(reactor)
        return ended
    }

    /// `reduce`'s body, with `current` passed in place. The state is moved out of it and the new one moved in:
    /// passed to `reduce` and to the relay straight from the field, a state would be copied (its strings and arrays
    /// retained and released) for each call, since the compiler cannot know that the user code they run leaves the
    /// field alone. Nothing else reads `current` meanwhile: a reentrant action waits in the queue for this turn. (An
    /// `inout` parameter rather than `withUnsafeMutablePointer`, whose closure is one more function per reactor type.)
    @inlinable @inline(__always)
    func reduce(_ mutation: R.Mutation, reactor: R, isLast: Bool, into current: inout R.State) -> Bool {
        let previous = consume current
        let state = reactor.reduce(state: previous, mutation: mutation)
        // The state before ends here, outside the lock, as whatever dies with it must (B12). Kept alive to the end, it
        // would keep the copy that the user's `reduce` makes (`var state = state`) from ever becoming a move, and be
        // more code to optimise.
        _ = consume previous
        // One call for both destinations (each call site would copy the state for the buffer, and release what the
        // publish leaves): the relay shares `lock`, the subject behind `transform(state:)` has a lock of its own. The
        // subject's replay buffer gets a copy made here, from the value `reduce` just returned. Both subjects live as
        // long as the loop, so neither is retained here.
        let destination = Unmanaged.passUnretained(statesGoToRelay ? relay : reducedStatesCore)
        let leftovers = destination._withUnsafeGuaranteedRef { $0.publishFromSoleSenderKeepingLock(state, kept: state) }
        // Before the turn can pass to another thread. Moved: without `consume`, a state too large for registers (more
        // than a few fields) was copied here, a retain per string or array, and the original destroyed.
        current = consume state
        // The queue and `running` are read only holding `lock`, which the relay's publish returned with. A turn with
        // idle waiters never ends here: they keep an item queued (see `ReactorLoopCore.isBusyHoldingLock`).
        let idle = isLast && statesGoToRelay && isQueueEmptyHoldingLock
        if idle { running = false }
        destination._withUnsafeGuaranteedRef { $0.lock.unlock() } // the relay's lock is `lock`
        // The state the replay buffer let go of dies after the lock (see `SubjectCore.publishFromSoleSender`).
        leftovers.release()
        return idle
    }

    /// Drops queued work; work sent later is ignored (the reactor is gone). Disposes the stage, which disposes the
    /// mutation streams still running (rule B9), and releases it (its streams refer back to this loop).
    ///
    /// Called from the reactor's deinitialisation, so no thread is running work (running work holds the reactor).
    @usableFromInline
    func dispose() {
        disposeQueue(runItem: Self.runItemEntry)
        // Read and cleared field by field rather than through `exchange`: this runs unspecialised, where a generic
        // call looks up the optional's type at run time.
        lock.lock()
        let stage = self.stage
        self.stage = nil
        lock.unlock()
        stage?.dispose()
    }
}
