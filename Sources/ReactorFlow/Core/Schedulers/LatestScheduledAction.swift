/// Holds the action an operator scheduled last, so that disposing the subscription cancels it.
///
/// An operator that schedules its next step from inside the step it runs (`from(_:scheduler:)`, `generate`) must not
/// let an earlier call's result replace a newer one: when a scheduler runs the first step at
/// once and a later one asynchronously (`MainScheduler.instance` on the main queue), the first `schedule` returns
/// after the step inside it has scheduled the next, and storing its result then would cancel that next step.
/// Each `schedule(on:_:)` takes a number; only the newest one's action is kept.
final class LatestScheduledAction: Disposable, @unchecked Sendable { // every field is guarded by `lock`
    private let lock = Lock.make()
    private var latest: UInt64 = 0
    private var current: Disposable?
    private var disposed = false

    /// Schedules `action` on `scheduler` and keeps it as the latest, unless a newer one was scheduled meanwhile.
    func schedule(on scheduler: ImmediateSchedulerType, _ action: @escaping () -> Void) {
        let number = lock.withLock { () -> UInt64 in
            latest &+= 1
            return latest
        }
        let scheduled = scheduler.schedule(action)
        let (cancelled, released) = lock.withLock { () -> (Disposable?, Disposable?) in
            if disposed { return (scheduled, nil) }
            // A newer action was scheduled while this one ran at once: this one is over, the newer one is kept.
            guard number == latest else { return (nil, nil) }
            return (nil, exchange(&current, with: scheduled))
        }
        cancelled?.dispose()
        // The action kept until now has run (the next one is scheduled from inside it): let go after the lock, not
        // cancelled.
        _ = consume released
    }

    /// Cancels the latest action, if it has not run; later `schedule` calls cancel theirs at once.
    func dispose() {
        let latestAction = lock.withLock { () -> Disposable? in
            disposed = true
            return exchange(&current, with: nil)
        }
        latestAction?.dispose()
    }
}
