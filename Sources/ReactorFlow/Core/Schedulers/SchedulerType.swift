@_exported import Dispatch // `RxTimeInterval` is `DispatchTimeInterval`: `.milliseconds(300)` must work with only `import ReactorFlow`
import Foundation

/// A time span, as in RxSwift: `.seconds(1)`, `.milliseconds(300)`.
public typealias RxTimeInterval = DispatchTimeInterval
/// A point in time, as in RxSwift.
public typealias RxTime = Date

/// Runs work now or soon, on its own terms (inline, trampolined, or on a queue).
///
/// Actions are plain closures (not `@Sendable`): a scheduler that hops threads hands the closure over under a lock
/// and runs it exactly once.
///
/// A scheduler implements one of the two forms of `schedule`: the plain closure, which the operators call and which
/// costs nothing more, or RxSwift's `schedule(_:action:)`, so that a scheduler written for RxSwift conforms as it is.
/// Each has a default built on the other. One that implements neither gets a `schedulerIncomplete` diagnostic and
/// runs nothing.
public protocol ImmediateSchedulerType {
    /// Runs `action` as soon as the scheduler allows; disposing the result before then cancels it.
    func schedule(_ action: @escaping () -> Void) -> Disposable

    /// Runs `action(state)` as the scheduler allows. Disposing the result before then cancels it; afterwards it
    /// disposes what the action returned (RxSwift's form).
    ///
    /// ```swift
    /// let work = scheduler.schedule(request) { request in
    ///     let task = session.start(request)
    ///     return Disposables.create { task.cancel() }
    /// }
    /// ```
    func schedule<StateType>(_ state: StateType, action: @escaping (StateType) -> Disposable) -> Disposable
}

/// A scheduler that also knows the time and can run work later.
///
/// As with `schedule`, a scheduler implements either form of `scheduleRelative` and of `schedulePeriodic`, the plain
/// one or RxSwift's; `schedulePeriodic` needs neither, since its default is built on `scheduleRelative`.
public protocol SchedulerType: ImmediateSchedulerType {
    /// The scheduler's clock (virtual for `TestScheduler`).
    var now: RxTime { get }

    /// Runs `action` after `dueTime`; disposing the result before then cancels it.
    func scheduleRelative(_ dueTime: RxTimeInterval, action: @escaping () -> Void) -> Disposable

    /// Runs `action(state)` after `dueTime`. Disposing the result before then cancels it; afterwards it disposes
    /// what the action returned (RxSwift's form).
    func scheduleRelative<StateType>(_ state: StateType, dueTime: RxTimeInterval,
                                     action: @escaping (StateType) -> Disposable) -> Disposable

    /// Runs `action` after `startAfter`, then every `period`, until disposed.
    func schedulePeriodic(startAfter: RxTimeInterval, period: RxTimeInterval, action: @escaping () -> Void) -> Disposable

    /// Runs `action` after `startAfter`, then every `period`, each time with the state the previous run returned
    /// (`state` the first time), until the result is disposed (RxSwift's form).
    ///
    /// ```swift
    /// let ticks = scheduler.schedulePeriodic(0, startAfter: .seconds(1), period: .seconds(1)) { count in
    ///     print(count)
    ///     return count + 1
    /// }
    /// ```
    func schedulePeriodic<StateType>(_ state: StateType, startAfter: RxTimeInterval, period: RxTimeInterval,
                                     action: @escaping (StateType) -> StateType) -> Disposable
}

extension DispatchTimeInterval {
    /// The interval in nanoseconds; `nil` for `.never`. One too long for `Int64` stops at its bound rather than
    /// trapping: `.seconds(.max)` is about 292 years.
    public var nanosecondCount: Int64? {
        switch self {
        case .seconds(let value): return Int64(value).saturatingMultiplied(by: 1_000_000_000)
        case .milliseconds(let value): return Int64(value).saturatingMultiplied(by: 1_000_000)
        case .microseconds(let value): return Int64(value).saturatingMultiplied(by: 1_000)
        case .nanoseconds(let value): return Int64(value)
        case .never: return nil
        @unknown default: return nil
        }
    }

    /// The interval in seconds; `.infinity` for `.never`.
    public var timeInterval: TimeInterval {
        nanosecondCount.map { TimeInterval($0) / 1e9 } ?? .infinity
    }
}

extension Date {
    /// Nanoseconds since 1970, for operators that do arithmetic on a scheduler's clock. A date that does not fit
    /// (after 2262 or before 1677, as `Date.distantFuture` is) stops at `Int64`'s bounds rather than trapping.
    package var nanosecondsSince1970: Int64 {
        Int64(saturating: (timeIntervalSince1970 * 1e9).rounded())
    }
}
