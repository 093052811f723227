/// RxSwift's scheduling calls, which pass a state to the action and let it return a disposable. They are built on
/// the plain closures the scheduler protocols require, so every scheduler, `TestScheduler` included, has them.
extension ImmediateSchedulerType {
    /// Runs `action(state)` as the scheduler allows. Disposing the result before then cancels it; afterwards it
    /// disposes what the action returned.
    ///
    /// ```swift
    /// let work = scheduler.schedule(request) { request in
    ///     let task = session.start(request)
    ///     return Disposables.create { task.cancel() }
    /// }
    /// ```
    public func schedule<StateType>(_ state: StateType, action: @escaping (StateType) -> Disposable) -> Disposable {
        let result = SingleAssignmentDisposable()
        let scheduled = schedule { result.setDisposable(action(state)) }
        return Disposables.create(scheduled, result)
    }

    /// Runs `action` with `state`, and again with each state it passes to its `recurse` argument, each run scheduled
    /// as `schedule` does (so on `CurrentThreadScheduler` a recursion runs after the current run, not inside it).
    /// Disposing the result cancels the runs not yet started.
    ///
    /// ```swift
    /// let countdown = CurrentThreadScheduler.instance.scheduleRecursive(3) { count, recurse in
    ///     print(count)
    ///     if count > 0 { recurse(count - 1) }
    /// }
    /// ```
    public func scheduleRecursive<State>(
        _ state: State, action: @escaping (_ state: State, _ recurse: (State) -> Void) -> Void
    ) -> Disposable {
        let recursion = RecursiveScheduling(scheduler: self, action: action)
        recursion.schedule(state)
        return recursion
    }
}

extension SchedulerType {
    /// Runs `action(state)` after `dueTime`. Disposing the result before then cancels it; afterwards it disposes
    /// what the action returned.
    public func scheduleRelative<StateType>(_ state: StateType, dueTime: RxTimeInterval,
                                            action: @escaping (StateType) -> Disposable) -> Disposable {
        let result = SingleAssignmentDisposable()
        let scheduled = scheduleRelative(dueTime) { result.setDisposable(action(state)) }
        return Disposables.create(scheduled, result)
    }

    /// Runs `action` after `startAfter`, then every `period`, each time with the state the previous run returned
    /// (`state` the first time), until the result is disposed.
    ///
    /// ```swift
    /// let ticks = scheduler.schedulePeriodic(0, startAfter: .seconds(1), period: .seconds(1)) { count in
    ///     print(count)
    ///     return count + 1
    /// }
    /// ```
    public func schedulePeriodic<StateType>(_ state: StateType, startAfter: RxTimeInterval, period: RxTimeInterval,
                                            action: @escaping (StateType) -> StateType) -> Disposable {
        // Runs never overlap (each is scheduled when the one before has returned), so the state needs no lock.
        var current = state
        return schedulePeriodic(startAfter: startAfter, period: period) { current = action(current) }
    }
}

/// The runs of one `scheduleRecursive`: every run that is scheduled and not yet started is held in `pending`, so
/// that disposing cancels them all.
// `action` is guarded by `lock`; `pending` locks itself.
final class RecursiveScheduling<State>: Disposable, @unchecked Sendable {
    private let lock = Lock.make()
    private let scheduler: ImmediateSchedulerType
    private var action: ((State, (State) -> Void) -> Void)?
    private let pending = CompositeDisposable()

    init(scheduler: ImmediateSchedulerType, action: @escaping (State, (State) -> Void) -> Void) {
        self.scheduler = scheduler
        self.action = action
    }

    func schedule(_ state: State) {
        // The run may start before `schedule` returns (at once, or on another thread), so it finds its slot in
        // `pending` through `slot`, which it empties.
        let slot = LockedValue((key: CompositeDisposable.DisposeKey?.none, started: false))
        let run = scheduler.schedule { [self] in
            let key = slot.withLock { slot -> CompositeDisposable.DisposeKey? in
                slot.started = true
                return exchange(&slot.key, with: nil)
            }
            if let key { pending.forget(key) } // it is running: nothing left to cancel
            guard let action = lock.withLock({ action }) else { return }
            action(state, schedule)
        }
        guard let key = pending.insert(run) else { return } // disposed meanwhile: `insert` disposed the run
        let remove = slot.withLock { slot -> Bool in
            if slot.started { return true }
            slot.key = key
            return false
        }
        if remove { pending.forget(key) }
    }

    func dispose() {
        let action = lock.withLock { exchange(&self.action, with: nil) }
        pending.dispose()
        _ = consume action // the caller's closure dies outside the lock (B12)
    }
}
