import Dispatch
import Foundation

/// Runs work on a serial `DispatchQueue`, in order. `MainScheduler` is one, on the main queue, as in RxSwift, so code
/// that keeps `MainScheduler.instance` as a `SerialDispatchQueueScheduler` compiles unchanged.
///
/// ```swift
/// let background = SerialDispatchQueueScheduler(qos: .userInitiated)
/// heavyWork.subscribe(on: background).observe(on: MainScheduler.instance)
/// ```
public class SerialDispatchQueueScheduler: SchedulerType, @unchecked Sendable { // not final only so that `MainScheduler` can be one; its fields are constants, and `MainScheduler`'s own is atomic
    /// The queue the work runs on.
    public let queue: DispatchQueue
    /// How late a delayed action may run, so that the system can group timers (see `DispatchSourceTimer`).
    public let leeway: DispatchTimeInterval

    /// Uses `queue`, which must be serial.
    public init(queue: DispatchQueue, leeway: DispatchTimeInterval = .nanoseconds(0)) {
        self.queue = queue
        self.leeway = leeway
    }

    /// Creates its own serial queue, named `internalSerialQueueName`; `serialQueueConfiguration` may adjust it before
    /// it is used.
    public convenience init(internalSerialQueueName: String, serialQueueConfiguration: ((DispatchQueue) -> Void)? = nil,
                            leeway: DispatchTimeInterval = .nanoseconds(0)) {
        let queue = DispatchQueue(label: internalSerialQueueName)
        serialQueueConfiguration?(queue)
        self.init(queue: queue, leeway: leeway)
    }

    /// Creates its own serial queue, named `internalSerialQueueName`, whose work runs on `queue` (which may be
    /// concurrent).
    public convenience init(queue: DispatchQueue, internalSerialQueueName: String, leeway: DispatchTimeInterval = .nanoseconds(0)) {
        self.init(queue: DispatchQueue(label: internalSerialQueueName, target: queue), leeway: leeway)
    }

    /// Creates its own serial queue on the global queue of `qos`.
    public convenience init(qos: DispatchQoS, internalSerialQueueName: String = "ReactorFlow.SerialDispatchQueueScheduler",
                            leeway: DispatchTimeInterval = .nanoseconds(0)) {
        self.init(queue: DispatchQueue.global(qos: qos.qosClass), internalSerialQueueName: internalSerialQueueName, leeway: leeway)
    }

    /// The wall-clock time.
    public var now: RxTime { Date() }

    /// Runs `action` asynchronously on the queue; disposing first skips it. (`MainScheduler` runs it inline when it
    /// can.)
    public func schedule(_ action: @escaping () -> Void) -> Disposable {
        queue.runSoon(action)
    }

    /// `schedule` for a caller that never cancels the action (`observe(on:)`, one action per event): no cancelable
    /// item is made for it.
    func scheduleWithoutCancel(_ action: @escaping () -> Void) {
        nonisolated(unsafe) let action = action // run once, by the queue, which hands it over
        queue.async { action() }
    }

    /// Runs `action` on the queue after `dueTime`, within `leeway`; disposing first cancels the timer and skips it.
    public final func scheduleRelative(_ dueTime: RxTimeInterval, action: @escaping () -> Void) -> Disposable {
        queue.runLater(dueTime, leeway: leeway, action)
    }
}

/// Runs work on a concurrent `DispatchQueue`: actions scheduled apart may run at the same time. What an operator
/// delivers through it (`observe(on:)`, `delay`, a timer) still reaches its observer one event at a time (rule A2).
///
/// ```swift
/// let background = ConcurrentDispatchQueueScheduler(qos: .background)
/// thumbnails.observe(on: background).map(render).observe(on: MainScheduler.instance)
/// ```
public final class ConcurrentDispatchQueueScheduler: SchedulerType, Sendable {
    /// The queue the work runs on.
    public let queue: DispatchQueue
    /// How late a delayed action may run, so that the system can group timers (see `DispatchSourceTimer`).
    public let leeway: DispatchTimeInterval

    /// Uses `queue`, usually a concurrent one.
    public init(queue: DispatchQueue, leeway: DispatchTimeInterval = .nanoseconds(0)) {
        self.queue = queue
        self.leeway = leeway
    }

    /// Uses the global concurrent queue of `qos`.
    public convenience init(qos: DispatchQoS, leeway: DispatchTimeInterval = .nanoseconds(0)) {
        self.init(queue: DispatchQueue.global(qos: qos.qosClass), leeway: leeway)
    }

    /// The wall-clock time.
    public var now: RxTime { Date() }

    /// Runs `action` asynchronously on the queue; disposing first skips it.
    public func schedule(_ action: @escaping () -> Void) -> Disposable {
        queue.runSoon(action)
    }

    /// Runs `action` on the queue after `dueTime`, within `leeway`; disposing first cancels the timer and skips it.
    public func scheduleRelative(_ dueTime: RxTimeInterval, action: @escaping () -> Void) -> Disposable {
        queue.runLater(dueTime, leeway: leeway, action)
    }
}

/// Runs work on the main queue, one action after another. `instance` runs an action inline when it is scheduled on
/// the main queue and no other action of it is waiting or running, as RxSwift's does: otherwise it queues the action,
/// so that actions never overtake one another and an action that schedules another does not run it inside itself.
/// (`ConcurrentMainScheduler` runs inline whenever it is on the main queue.) A `SerialDispatchQueueScheduler` on the
/// main queue, as RxSwift's is; delayed actions are that class's, on the main queue.
///
/// An executable using it must keep the main queue running (`dispatchMain()` or an `async` main). On Linux the main
/// queue may be drained by a thread other than the process's first one, so "on the main queue" is detected with a
/// queue-specific key rather than `Thread.isMainThread`.
///
/// ```swift
/// reactor.state.observe(on: MainScheduler.instance)
/// ```
public final class MainScheduler: SerialDispatchQueueScheduler, @unchecked Sendable { // its own field is atomic; the rest is its superclass's constants
    /// Inline on the main thread, otherwise queued on the main queue.
    public static let instance = MainScheduler()
    /// Always queued on the main queue, even from the main thread: a serial scheduler on the main queue, as RxSwift's.
    public static let asyncInstance = SerialDispatchQueueScheduler(queue: .main)

    /// This scheduler's actions scheduled and not yet finished: it runs one inline only when it is the only one.
    private let unfinished = AtomicWord()

    private static let mainQueueKey: DispatchSpecificKey<Bool> = {
        let key = DispatchSpecificKey<Bool>()
        DispatchQueue.main.setSpecific(key: key, value: true)
        return key
    }()

    /// Whether the caller is running on the main queue.
    public static var isOnMainQueue: Bool {
        DispatchQueue.getSpecific(key: mainQueueKey) == true
    }

    /// Reports a `notOnMainQueue` diagnostic, with `errorMessage` or a default one, unless the caller runs on the
    /// main queue. (RxSwift stops the process here; ReactorFlow reports and goes on.)
    ///
    /// ```swift
    /// MainScheduler.ensureRunningOnMainThread(errorMessage: "views are updated on the main queue")
    /// ```
    public static func ensureRunningOnMainThread(errorMessage: String? = nil) {
        guard !isOnMainQueue else { return }
        Diagnostics.report(.notOnMainQueue, message: errorMessage ?? "Running on background thread.")
    }

    /// `ensureRunningOnMainThread(errorMessage:)` with RxSwift's message about scheduling work on the main scheduler.
    public static func ensureExecutingOnScheduler(errorMessage: String? = nil) {
        ensureRunningOnMainThread(errorMessage: errorMessage
            ?? "Executing on background thread. Please use `MainScheduler.instance.schedule` to schedule work on main thread.")
    }

    /// A main scheduler of its own, as RxSwift's `MainScheduler()`: like `instance`, it runs an action inline on the
    /// main queue when none of its own actions is waiting or running, whatever other main schedulers have pending.
    /// `Driver`, `Signal` and `Binder` each take a new one, as in RxCocoa, so that a delivery made from inside
    /// another one's runs at once rather than a turn of the main queue later.
    public init() {
        super.init(queue: .main)
    }

    /// Runs `action` on the main queue: at once if already there and none of this scheduler's actions is pending,
    /// otherwise asynchronously, after the actions before it; disposing before it runs skips it.
    public override func schedule(_ action: @escaping () -> Void) -> Disposable {
        if ranInline(action) { return Disposables.create() }
        let item = ScheduledItem.make(action)
        runLater(item.runOnAnyThread)
        return item
    }

    override func scheduleWithoutCancel(_ action: @escaping () -> Void) {
        if !ranInline(action) { runLater(action) }
    }

    /// Counts `action` as unfinished, and runs it at once if on the main queue with none of this scheduler's actions
    /// pending; returns whether it ran (otherwise `runLater` must run it and count it finished).
    private func ranInline(_ action: () -> Void) -> Bool {
        guard unfinished.add(1) == 0 && Self.isOnMainQueue else { return false }
        action()
        unfinished.add(-1)
        return true
    }

    private func runLater(_ action: @escaping () -> Void) {
        nonisolated(unsafe) let action = action // run once, by the main queue, which hands it over
        DispatchQueue.main.async { [self] in
            action()
            unfinished.add(-1)
        }
    }
}

extension DispatchQueue {
    /// Runs `action` asynchronously on this queue, unless the result is disposed first: the dispatch queue
    /// schedulers' `schedule`.
    func runSoon(_ action: @escaping () -> Void) -> Disposable {
        let item = ScheduledItem.make(action)
        async(execute: item.runOnAnyThread)
        return item
    }

    /// Runs `action` on this queue after `dueTime`, within `leeway`, unless the result is disposed first: the
    /// dispatch queue schedulers' `scheduleRelative`. A due time of `.never` schedules nothing.
    func runLater(_ dueTime: RxTimeInterval, leeway: DispatchTimeInterval, _ action: @escaping () -> Void) -> Disposable {
        guard dueTime != .never else { return Disposables.create() }
        let item = ScheduledItem.make(action)
        let timer = DispatchSource.makeTimerSource(queue: self)
        timer.schedule(deadline: .now() + dueTime, leeway: leeway)
        // Cancelled once fired or disposed, which releases the handler and so the timer it refers to.
        timer.setEventHandler {
            item.run()
            timer.cancel()
        }
        timer.resume()
        return Disposables.create {
            item.dispose()
            timer.cancel()
        }
    }
}
