import Foundation

/// Runs work on the main queue: inline whenever it is scheduled from the main queue, even inside another action,
/// otherwise asynchronously. Meant for `subscribe(on:)`, where the work only has to start on the main queue; to
/// deliver events in order, use `MainScheduler.instance`.
///
/// ```swift
/// Observable.create(startLocationUpdates).subscribe(on: ConcurrentMainScheduler.instance)
/// ```
public final class ConcurrentMainScheduler: SchedulerType, Sendable {
    /// The shared instance.
    public static let instance = ConcurrentMainScheduler()

    private init() {}

    /// The wall-clock time.
    public var now: RxTime { Date() }

    /// Runs `action` at once on the main queue, or asynchronously on it from elsewhere; disposing before it runs
    /// skips it.
    public func schedule(_ action: @escaping () -> Void) -> Disposable {
        guard MainScheduler.isOnMainQueue else { return DispatchQueue.main.runSoon(action) }
        action()
        return Disposables.create()
    }

    /// Runs `action` on the main queue after `dueTime`; disposing first skips it.
    public func scheduleRelative(_ dueTime: RxTimeInterval, action: @escaping () -> Void) -> Disposable {
        MainScheduler.instance.scheduleRelative(dueTime, action: action)
    }
}
