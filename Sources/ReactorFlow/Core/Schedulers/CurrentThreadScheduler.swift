#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Runs work on the calling thread, trampolined: an action scheduled while another one runs on the same thread is
/// queued and runs after it, never recursively, so deep reentrancy cannot overflow the stack.
///
/// ```swift
/// CurrentThreadScheduler.instance.schedule { print("now, or right after the current action") }
/// ```
public final class CurrentThreadScheduler: ImmediateSchedulerType, Sendable {
    /// The shared instance.
    public static let instance = CurrentThreadScheduler()

    private static let queueKey: pthread_key_t = {
        var key = pthread_key_t()
        pthread_key_create(&key, nil)
        return key
    }()

    /// Whether no trampoline is running on this thread (a schedule now would run inline).
    public static var isScheduleRequired: Bool { pthread_getspecific(queueKey) == nil }

    private init() {}

    /// Runs `action` now, or after the actions already scheduled on this thread if one is running (a trampoline).
    public func schedule(_ action: @escaping () -> Void) -> Disposable {
        if let existing = pthread_getspecific(Self.queueKey) {
            let trampoline = Unmanaged<Trampoline>.fromOpaque(existing).takeUnretainedValue()
            let item = ScheduledItem(action)
            trampoline.items.append(item)
            return item
        }
        let trampoline = Trampoline()
        pthread_setspecific(Self.queueKey, Unmanaged.passUnretained(trampoline).toOpaque())
        defer { pthread_setspecific(Self.queueKey, nil) }
        action()
        while let item = trampoline.items.popFirst() {
            item.run()
        }
        return Disposables.create()
    }
}

/// The queue of one thread's trampoline; only its own thread touches it.
private final class Trampoline {
    var items = FIFO<ScheduledItem>()
}

/// Runs every action inline, at once, on the calling thread (no queue, no trampoline).
public final class ImmediateScheduler: ImmediateSchedulerType, Sendable {
    /// The shared instance.
    public static let instance = ImmediateScheduler()
    private init() {}

    /// Runs `action` now, on the calling thread, and returns an already-disposed disposable.
    public func schedule(_ action: @escaping () -> Void) -> Disposable {
        action()
        return Disposables.create()
    }
}
