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
        // A closure literal, whose parameter takes each platform's type (optional on Glibc and Musl, not on Darwin).
        pthread_key_create(&key) { releaseTrampoline($0) }
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
            let item = ScheduledItem.make(action)
            trampoline.items.append(.cancelable(item))
            return item
        }
        trampoline.run(action)
        return Disposables.create()
    }

    /// `schedule` for a caller that never cancels the action (an operator moving to its next source): a queued
    /// action is kept as it is, without the cancelable item and its lock that `schedule` makes for it.
    func trampoline(_ action: @escaping () -> Void) {
        let trampoline = Self.trampolineOfThisThread
        if trampoline.isRunning { return trampoline.items.append(.action(action)) }
        trampoline.run(action)
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
private func releaseTrampoline(_ stored: UnsafeMutableRawPointer?) {
    guard let stored else { return }
    Unmanaged<Trampoline>.fromOpaque(stored).release()
}

/// One thread's trampoline: whether it runs, and the actions scheduled meanwhile. Only its own thread touches it,
/// so the runtime need not check each access for exclusivity.
private final class Trampoline {
    /// An action scheduled while the trampoline runs.
    enum Item {
        /// From `schedule`: the item it returned, which may have been disposed since.
        case cancelable(ScheduledItem)
        /// From `trampoline(_:)`, which nobody cancels.
        case action(() -> Void)
    }

    @exclusivity(unchecked) var isRunning = false
    @exclusivity(unchecked) var items = FIFO<Item>()

    /// Runs `action`, then every action scheduled meanwhile, in order.
    func run(_ action: () -> Void) {
        isRunning = true
        defer { isRunning = false }
        action()
        while let item = items.popFirst() {
            switch item {
            case .cancelable(let scheduled): scheduled.run()
            case .action(let action): action()
            }
        }
    }
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
