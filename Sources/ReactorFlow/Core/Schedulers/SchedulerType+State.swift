#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Each form of the scheduling calls built on the other: a scheduler implements the plain closures, which the operators
/// call, or RxSwift's forms, which pass a state to the action and let it return a disposable, and has both.
extension ImmediateSchedulerType {
    /// `schedule(_:)` for a scheduler that implements RxSwift's `schedule(_:action:)`.
    public func schedule(_ action: @escaping () -> Void) -> Disposable {
        DefaultFormGuard.callingStateForm(of: Self.self, .schedule) {
            schedule((), action: { _ in
                action()
                return Disposables.create()
            })
        }
    }

    /// RxSwift's `schedule(_:action:)`, built on `schedule(_:)`. Disposing the result before the action runs cancels
    /// it; afterwards it disposes what the action returned.
    public func schedule<StateType>(_ state: StateType, action: @escaping (StateType) -> Disposable) -> Disposable {
        if DefaultFormGuard.isLooping(Self.self, .schedule) { return Disposables.create() }
        return Disposables.scheduling(state, action) { schedule($0) }
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
    /// `scheduleRelative(_:action:)` for a scheduler that implements RxSwift's `scheduleRelative(_:dueTime:action:)`.
    public func scheduleRelative(_ dueTime: RxTimeInterval, action: @escaping () -> Void) -> Disposable {
        DefaultFormGuard.callingStateForm(of: Self.self, .scheduleRelative) {
            scheduleRelative((), dueTime: dueTime, action: { _ in
                action()
                return Disposables.create()
            })
        }
    }

    /// RxSwift's `scheduleRelative(_:dueTime:action:)`, built on `scheduleRelative(_:action:)`. Disposing the result
    /// before the action runs cancels it; afterwards it disposes what the action returned.
    public func scheduleRelative<StateType>(_ state: StateType, dueTime: RxTimeInterval,
                                            action: @escaping (StateType) -> Disposable) -> Disposable {
        if DefaultFormGuard.isLooping(Self.self, .scheduleRelative) { return Disposables.create() }
        return Disposables.scheduling(state, action) { scheduleRelative(dueTime, action: $0) }
    }

    /// `schedulePeriodic(startAfter:period:action:)` built on RxSwift's form, so that a scheduler written for RxSwift
    /// with a periodic timer of its own runs `Observable.interval` on it.
    public func schedulePeriodic(startAfter: RxTimeInterval, period: RxTimeInterval, action: @escaping () -> Void) -> Disposable {
        schedulePeriodic((), startAfter: startAfter, period: period) { _ in action() }
    }

    /// RxSwift's `schedulePeriodic(_:startAfter:period:action:)`, built on `scheduleRelative`: each run schedules the
    /// next one `period` after it, until the result is disposed.
    public func schedulePeriodic<StateType>(_ state: StateType, startAfter: RxTimeInterval, period: RxTimeInterval,
                                            action: @escaping (StateType) -> StateType) -> Disposable {
        // Runs never overlap (each is scheduled when the one before has returned), so the state needs no lock.
        var current = state
        let next = SerialDisposable()
        func tick(after delay: RxTimeInterval) {
            next.disposable = scheduleRelative(delay) {
                current = action(current)
                tick(after: period)
            }
        }
        tick(after: startAfter)
        return next
    }
}

extension Disposables {
    /// What every call that passes a state returns (RxSwift's forms here, and the virtual-time schedulers'):
    /// `schedule` is handed a run of `action(state)`; disposing the result before the run cancels it, and afterwards
    /// disposes what the action returned.
    package static func scheduling<State>(_ state: State, _ action: @escaping (State) -> Disposable,
                                          by schedule: (@escaping () -> Void) -> Disposable) -> Disposable {
        let result = SingleAssignmentDisposable()
        let scheduled = schedule { result.setDisposable(action(state)) }
        return Disposables.create(scheduled, result)
    }
}

/// Catches a scheduler that implements neither form of `schedule` (or of `scheduleRelative`), whose two defaults
/// would otherwise call each other until the stack overflows.
///
/// A type reaches the default of RxSwift's form only if it does not implement that form, and the default of the plain
/// form only if it does not implement that one. So RxSwift's default, reached on a thread where the plain default of
/// the same type and pair is still running, means the type has neither: it reports `schedulerIncomplete` and runs
/// nothing.
enum DefaultFormGuard {
    enum Pair: UInt {
        case schedule = 0
        case scheduleRelative = 1
    }

    /// This thread's mark: the scheduler type (and pair) whose plain default is calling RxSwift's form.
    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        pthread_key_create(&key, nil)
        return key
    }()

    /// Runs `body`, the plain default of `pair` calling RxSwift's form, with this thread marked for `scheduler`.
    static func callingStateForm<Scheduler, Result>(of scheduler: Scheduler.Type, _ pair: Pair,
                                                    _ body: () -> Result) -> Result {
        let previous = pthread_getspecific(key)
        pthread_setspecific(key, mark(scheduler, pair))
        defer { pthread_setspecific(key, previous) }
        return body()
    }

    /// Whether RxSwift's default of `pair` was reached from the plain one for the same type; if so, reports it.
    static func isLooping<Scheduler>(_ scheduler: Scheduler.Type, _ pair: Pair) -> Bool {
        guard pthread_getspecific(key) == mark(scheduler, pair) else { return false }
        let names = pair == .schedule ? "schedule(_:) nor schedule(_:action:)"
                                      : "scheduleRelative(_:action:) nor scheduleRelative(_:dueTime:action:)"
        Diagnostics.report(.schedulerIncomplete, message: "\(scheduler) implements neither \(names); nothing was run")
        return true
    }

    /// The type's metadata address with the pair in its lowest bit, which the metadata's alignment leaves free.
    private static func mark<Scheduler>(_ scheduler: Scheduler.Type, _ pair: Pair) -> UnsafeMutableRawPointer? {
        UnsafeMutableRawPointer(bitPattern: UInt(bitPattern: ObjectIdentifier(scheduler)) | pair.rawValue)
    }
}

/// The runs of one `scheduleRecursive`: every run that is scheduled and not yet started is held in `pending`, so
/// that disposing cancels them all.
// `action` is guarded by `lock`; `pending` locks itself.
final class RecursiveScheduling<State>: Disposable, @unchecked Sendable {
    /// Its lock's word (see `InlineLock`): the first stored property.
    private var lockWord = 0
    private var lock: InlineLock { InlineLock(of: self) }
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
