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

    /// Each thread's trampoline, made on its first schedule and kept until the thread exits: a `concat` trampolines
    /// every move to its next source, and a trampoline made per outermost schedule cost an object and its queue's
    /// storage each time.
    private static let trampolineKey: pthread_key_t = {
        var key = pthread_key_t()
        pthread_key_create(&key, releaseTrampoline)
        return key
    }()

    /// Whether no trampoline is running on this thread (a schedule now would run inline).
    public static var isScheduleRequired: Bool {
        guard let stored = pthread_getspecific(trampolineKey) else { return true }
        return !Unmanaged<Trampoline>.fromOpaque(stored).takeUnretainedValue().isRunning
    }

    private init() {}

    /// Runs `action` now, or after the actions already scheduled on this thread if one is running (a trampoline).
    public func schedule(_ action: @escaping () -> Void) -> Disposable {
        let trampoline = Self.trampolineOfThisThread
        if trampoline.isRunning {
            let item = ScheduledItem(action)
            trampoline.items.append(item)
            return item
        }
        trampoline.isRunning = true
        defer { trampoline.isRunning = false }
        action()
        while let item = trampoline.items.popFirst() {
            item.run()
        }
        return Disposables.create()
    }

    /// This thread's trampoline, made if needed. Unretained: the thread's slot holds it.
    private static var trampolineOfThisThread: Trampoline {
        if let stored = pthread_getspecific(trampolineKey) {
            return Unmanaged<Trampoline>.fromOpaque(stored).takeUnretainedValue()
        }
        let trampoline = Trampoline()
        pthread_setspecific(trampolineKey, Unmanaged.passRetained(trampoline).toOpaque())
        return trampoline
    }
}

/// Lets go of an exiting thread's trampoline (the destructor of its thread-local slot).
#if canImport(Darwin)
private func releaseTrampoline(_ stored: UnsafeMutableRawPointer) {
    Unmanaged<Trampoline>.fromOpaque(stored).release()
}
#else
private func releaseTrampoline(_ stored: UnsafeMutableRawPointer?) {
    guard let stored else { return }
    Unmanaged<Trampoline>.fromOpaque(stored).release()
}
#endif

/// One thread's trampoline: whether it runs, and the actions scheduled meanwhile. Only its own thread touches it,
/// so the runtime need not check each access for exclusivity.
private final class Trampoline {
    @exclusivity(unchecked) var isRunning = false
    @exclusivity(unchecked) var items = FIFO<ScheduledItem>()
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
