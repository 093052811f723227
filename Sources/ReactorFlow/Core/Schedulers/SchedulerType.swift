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
public protocol ImmediateSchedulerType {
    /// Runs `action` as soon as the scheduler allows; disposing the result before then cancels it.
    func schedule(_ action: @escaping () -> Void) -> Disposable
}

/// A scheduler that also knows the time and can run work later.
public protocol SchedulerType: ImmediateSchedulerType {
    /// The scheduler's clock (virtual for `TestScheduler`).
    var now: RxTime { get }

    /// Runs `action` after `dueTime`; disposing the result before then cancels it.
    func scheduleRelative(_ dueTime: RxTimeInterval, action: @escaping () -> Void) -> Disposable

    /// Runs `action` after `startAfter`, then every `period`, until disposed.
    func schedulePeriodic(startAfter: RxTimeInterval, period: RxTimeInterval, action: @escaping () -> Void) -> Disposable
}

extension SchedulerType {
    /// Runs `action` after `startAfter`, then every `period`, until the result is disposed; built on `scheduleRelative`.
    public func schedulePeriodic(startAfter: RxTimeInterval, period: RxTimeInterval, action: @escaping () -> Void) -> Disposable {
        let current = SerialDisposable()
        func tick(after delay: RxTimeInterval) {
            current.disposable = scheduleRelative(delay) {
                action()
                tick(after: period)
            }
        }
        tick(after: startAfter)
        return current
    }
}

extension DispatchTimeInterval {
    /// The interval in nanoseconds; `nil` for `.never`.
    public var nanosecondCount: Int64? {
        switch self {
        case .seconds(let value): return Int64(value) * 1_000_000_000
        case .milliseconds(let value): return Int64(value) * 1_000_000
        case .microseconds(let value): return Int64(value) * 1_000
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
