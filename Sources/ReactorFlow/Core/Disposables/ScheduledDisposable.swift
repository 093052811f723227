/// Disposes the disposable it wraps on a given scheduler: `dispose()` schedules the disposal, which runs once,
/// however many times `dispose()` is called.
///
/// ```swift
/// let subscription = ScheduledDisposable(scheduler: MainScheduler.instance, disposable: viewBinding)
/// subscription.dispose() // the binding is disposed on the main queue
/// ```
// `disposable` and `disposed` are guarded by `lock`.
public final class ScheduledDisposable: Cancelable, @unchecked Sendable {
    /// Its lock's word (see `InlineLock`): the first stored property.
    private var lockWord = 0
    /// Where the disposal runs.
    public let scheduler: ImmediateSchedulerType
    private var lock: InlineLock { InlineLock(of: self) }
    private var disposable: Disposable?
    private var disposed = false

    /// Wraps `disposable`, to be disposed on `scheduler`.
    @inline(never) public init(scheduler: ImmediateSchedulerType, disposable: Disposable) {
        self.scheduler = scheduler
        self.disposable = disposable
    }

    /// Whether the wrapped disposable has been disposed (on the scheduler).
    public var isDisposed: Bool { lock.withLock { disposed } }

    /// Schedules the wrapped disposable's disposal on the scheduler; later calls schedule nothing.
    public func dispose() {
        guard let disposable = lock.withLock({ exchange(&self.disposable, with: nil) }) else { return }
        _ = scheduler.schedule { [self] in
            lock.withLock { disposed = true }
            disposable.dispose()
        }
    }
}
