import Foundation
import ReactorFlow
import Testing

/// A point in virtual time, in ticks of a `TestScheduler` (one second each by default, as in RxTest).
public typealias TestTime = Int

/// A scheduler whose clock moves only when a test says so, so every time-based operator is deterministic. It keeps
/// RxTest's rules, so tests written for RxTest mean the same here:
///
/// - One tick is one second unless `resolution:` says otherwise: `interval(.seconds(1), scheduler:)` fires at
///   ticks 1, 2, 3…
/// - Work scheduled relative to now for now or the past (`schedule`, `scheduleRelative` with a zero or negative
///   delay) runs one tick later, RxTest's processing delay; `simulateProcessingDelay: false` runs it at the
///   current tick instead. Work scheduled at an absolute time (`scheduleAt`) runs at that time.
/// - Nothing runs behind the test's back: work runs on `start()`, `advance(to:)` or `advance(by:)`.
///
/// ```swift
/// let scheduler = TestScheduler(initialClock: 0)
/// let observer = scheduler.start { Observable<Int>.interval(.seconds(1), scheduler: scheduler).take(3) }
/// #expect(observer.events == [.next(201, 0), .next(202, 1), .next(203, 2), .completed(203)])
/// ```
public final class TestScheduler: SchedulerType, @unchecked Sendable { // the clock and queue are guarded by `lock`
    /// The default times of `start(_:)`, as in RxTest.
    public enum Defaults {
        /// When `start(_:)` makes the observable.
        public static let created = 100
        /// When `start(_:)` subscribes to it.
        public static let subscribed = 200
        /// When `start(_:)` disposes the subscription.
        public static let disposed = 1000
    }

    private struct Item {
        let time: TestTime
        let order: UInt64
        let work: ScheduledItem
    }

    private let lock = Lock.make()
    private var clockTicks: TestTime
    private var queue: [Item] = []
    private var nextOrder: UInt64 = 0
    private var running = false
    private let nanosecondsPerTick: Int64
    private let simulateProcessingDelay: Bool

    /// - Parameters:
    ///   - initialClock: the starting time, in ticks.
    ///   - resolution: the seconds in one tick (RxTest's meaning): `0.001` for millisecond ticks.
    ///   - simulateProcessingDelay: whether work scheduled for now or the past runs one tick later.
    public init(initialClock: TestTime = 0, resolution: Double = 1.0, simulateProcessingDelay: Bool = true) {
        self.clockTicks = initialClock
        let nanoseconds = (resolution * 1e9).rounded()
        self.nanosecondsPerTick = nanoseconds.isFinite && nanoseconds >= 1 ? Int64(min(nanoseconds, 9e18)) : 1
        self.simulateProcessingDelay = simulateProcessingDelay
    }

    /// A scheduler whose tick lasts `resolution`: `TestScheduler(resolution: .milliseconds(1))`.
    public convenience init(initialClock: TestTime = 0, resolution: RxTimeInterval, simulateProcessingDelay: Bool = true) {
        let nanoseconds = resolution.nanosecondCount ?? 1_000_000_000
        self.init(initialClock: initialClock, resolution: Double(max(1, nanoseconds)) / 1e9,
                  simulateProcessingDelay: simulateProcessingDelay)
    }

    /// The current virtual time, in ticks.
    public var clock: TestTime { lock.withLock { clockTicks } }

    /// The current virtual time as a date (tick 0 is 1 January 1970); moves only when the scheduler advances.
    public var now: RxTime {
        Date(timeIntervalSince1970: Double(clock) * Double(nanosecondsPerTick) / 1e9)
    }

    /// The number of ticks in `interval`, rounded to the nearest tick.
    public func ticks(_ interval: RxTimeInterval) -> TestTime {
        guard let nanoseconds = interval.nanosecondCount else { return .max }
        let (sum, overflow) = nanoseconds.addingReportingOverflow(nanosecondsPerTick / 2)
        return overflow ? .max : TestTime(sum / nanosecondsPerTick)
    }

    /// Whether work is waiting to run.
    public var hasPendingWork: Bool { lock.withLock { queue.contains { $0.work.isPending } } }

    /// The number of scheduled items not yet run or cancelled.
    public var pendingWorkCount: Int { lock.withLock { queue.filter { $0.work.isPending }.count } }

    /// Queues `action` for now: with the processing delay (the default), it runs one tick later.
    public func schedule(_ action: @escaping () -> Void) -> Disposable {
        scheduleRelative(.seconds(0), action: action)
    }

    /// Queues `action` at the current virtual time plus `dueTime`; a due time that is not in the future runs one
    /// tick later with the processing delay, at the current tick without it.
    public func scheduleRelative(_ dueTime: RxTimeInterval, action: @escaping () -> Void) -> Disposable {
        guard dueTime != .never else { return Disposables.create() }
        let work = ScheduledItem.make(action)
        lock.withLock {
            let (target, overflow) = clockTicks.addingReportingOverflow(ticks(dueTime))
            let due = overflow ? TestTime.max : target
            enqueueHoldingLock(due > clockTicks ? due : clockTicks + (simulateProcessingDelay ? 1 : 0), work)
        }
        return work
    }

    /// Runs `action` at virtual time `time`, as it is (at once on the next run, if `time` has passed).
    @discardableResult
    public func scheduleAt(_ time: TestTime, action: @escaping () -> Void) -> Disposable {
        let work = ScheduledItem.make(action)
        lock.withLock { enqueueHoldingLock(time, work) }
        return work
    }

    /// RxTest's `scheduleAbsoluteVirtual`: runs `action(state)` at virtual time `time`, as `scheduleAt` does.
    /// Disposing the result before then cancels it; afterwards it disposes what the action returned.
    ///
    /// ```swift
    /// _ = scheduler.scheduleAbsoluteVirtual(subject, time: 300) { subject in
    ///     subject.onNext(1)
    ///     return Disposables.create()
    /// }
    /// ```
    public func scheduleAbsoluteVirtual<StateType>(_ state: StateType, time: TestTime,
                                                   action: @escaping (StateType) -> Disposable) -> Disposable {
        Disposables.scheduling(state, action) { scheduleAt(time, action: $0) }
    }

    /// RxTest's `scheduleRelativeVirtual`: `scheduleAbsoluteVirtual` at `dueTime` ticks after the current clock.
    public func scheduleRelativeVirtual<StateType>(_ state: StateType, dueTime: TestTime,
                                                   action: @escaping (StateType) -> Disposable) -> Disposable {
        scheduleAbsoluteVirtual(state, time: clock + dueTime, action: action)
    }

    private func enqueueHoldingLock(_ time: TestTime, _ work: ScheduledItem) {
        let item = Item(time: time, order: nextOrder, work: work)
        nextOrder += 1
        let index = queue.firstIndex { ($0.time, $0.order) > (item.time, item.order) } ?? queue.endIndex
        queue.insert(item, at: index)
    }

    /// Runs, in time order, everything due up to and including `time`, then sets the clock to `time`.
    /// Moving backwards is a no-op. Called from inside work the scheduler runs, it does nothing.
    public func advance(to time: TestTime) {
        guard enterRun() else { return }
        while let work = popDue(upTo: time) {
            work.run()
        }
        lock.withLock {
            clockTicks = max(clockTicks, time)
            running = false
        }
    }

    /// RxTest's name for `advance(to:)`.
    public func advanceTo(_ time: TestTime) { advance(to: time) }

    /// Advances the clock by `interval` (`.seconds(0)` runs what is due at the current tick).
    public func advance(by interval: RxTimeInterval) {
        advance(to: clock + ticks(interval))
    }

    /// Advances the clock by `ticks`.
    public func advance(byTicks ticks: TestTime) {
        advance(to: clock + ticks)
    }

    /// Moves the clock forward by `ticks` without running anything (RxTest's `sleep`); a negative value is ignored.
    public func sleep(_ ticks: TestTime) {
        lock.withLock { clockTicks += max(0, ticks) }
    }

    /// Ends a `start()` or `advance` in progress once the item that is running returns (RxTest's `stop()`).
    public func stop() {
        lock.withLock { running = false }
    }

    /// Runs everything scheduled, moving the clock as far as needed, until nothing is left or `stop()` is called
    /// (RxTest's `start()`). Stops and records an issue after `maxSteps` items, since a periodic timer that
    /// nobody disposes never runs out.
    public func start(maxSteps: Int = 1_000_000, fileID: String = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column) {
        guard enterRun() else { return }
        defer { lock.withLock { running = false } }
        var steps = 0
        while lock.withLock({ running }), let time = lock.withLock({ queue.first(where: { $0.work.isPending })?.time }) {
            steps += 1
            if steps > maxSteps {
                FailureSite(fileID: fileID, filePath: filePath, line: line, column: column)
                    .record("TestScheduler.start() stopped after \(maxSteps) items: something reschedules forever (an interval nobody disposes?). Use advance(to:) instead.")
                return
            }
            guard let work = popDue(upTo: time) else { continue }
            work.run()
        }
    }

    /// The same as `start()`.
    public func run(maxSteps: Int = 1_000_000, fileID: String = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column) {
        start(maxSteps: maxSteps, fileID: fileID, filePath: filePath, line: line, column: column)
    }

    /// Takes the running role; a run inside a run (from scheduled work) is refused, as RxTest refuses it.
    private func enterRun() -> Bool {
        lock.withLock {
            if running { return false }
            running = true
            return true
        }
    }

    private func popDue(upTo time: TestTime) -> ScheduledItem? {
        lock.withLock {
            while let first = queue.first, first.time <= time {
                queue.removeFirst()
                if !first.work.isPending { continue }
                clockTicks = max(clockTicks, first.time)
                return first.work
            }
            return nil
        }
    }
}
