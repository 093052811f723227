import Foundation
import ReactorFlow
import Testing

/// A point in virtual time, in ticks of a `TestScheduler` (one millisecond each by default).
public typealias TestTime = Int

/// A scheduler whose clock moves only when a test says so, so every time-based operator is deterministic.
///
/// Work scheduled "now" waits for the next `advance`: nothing runs behind the test's back.
///
/// ```swift
/// let scheduler = TestScheduler()
/// let results = scheduler.record(source.debounce(.milliseconds(300), scheduler: scheduler))
/// scheduler.advance(by: .seconds(1))
/// ```
public final class TestScheduler: SchedulerType, @unchecked Sendable { // the clock and queue are guarded by `lock`
    private struct Item {
        let time: TestTime
        let order: UInt64
        let work: ScheduledItem
    }

    private let lock = Lock.make()
    private var clockTicks: TestTime
    private var queue: [Item] = []
    private var nextOrder: UInt64 = 0
    private let nanosecondsPerTick: Int64

    /// - Parameters:
    ///   - initialClock: the starting time, in ticks.
    ///   - resolution: the duration of one tick.
    public init(initialClock: TestTime = 0, resolution: RxTimeInterval = .milliseconds(1)) {
        self.clockTicks = initialClock
        self.nanosecondsPerTick = max(1, resolution.nanosecondCount ?? 1_000_000)
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
        return TestTime((nanoseconds + nanosecondsPerTick / 2) / nanosecondsPerTick)
    }

    /// Whether work is waiting to run.
    public var hasPendingWork: Bool { lock.withLock { queue.contains { $0.work.isPending } } }

    /// The number of scheduled items not yet run or cancelled.
    public var pendingWorkCount: Int { lock.withLock { queue.filter { $0.work.isPending }.count } }

    /// Queues `action` at the current virtual time; it runs on the next `advance(by:)`, `advance(to:)` or `run()`.
    public func schedule(_ action: @escaping () -> Void) -> Disposable {
        scheduleAt(clock, action: action)
    }

    /// Queues `action` at the current virtual time plus `dueTime`.
    public func scheduleRelative(_ dueTime: RxTimeInterval, action: @escaping () -> Void) -> Disposable {
        guard dueTime != .never else { return Disposables.create() }
        return scheduleAt(clock + ticks(dueTime), action: action)
    }

    /// Runs `action` at virtual time `time` (at once on the next advance, if `time` has passed).
    @discardableResult
    public func scheduleAt(_ time: TestTime, action: @escaping () -> Void) -> Disposable {
        let work = ScheduledItem(action)
        lock.withLock {
            let item = Item(time: time, order: nextOrder, work: work)
            nextOrder += 1
            let index = queue.firstIndex { ($0.time, $0.order) > (item.time, item.order) } ?? queue.endIndex
            queue.insert(item, at: index)
        }
        return work
    }

    /// Runs, in time order, everything due up to and including `time`, then sets the clock to `time`.
    /// Moving backwards is a no-op.
    public func advance(to time: TestTime) {
        while let work = popDue(upTo: time) {
            work.run()
        }
        lock.withLock { clockTicks = max(clockTicks, time) }
    }

    /// Advances the clock by `interval` (`.seconds(0)` runs what is due now).
    public func advance(by interval: RxTimeInterval) {
        advance(to: clock + ticks(interval))
    }

    /// Advances the clock by `ticks`.
    public func advance(byTicks ticks: TestTime) {
        advance(to: clock + ticks)
    }

    /// Runs everything scheduled, moving the clock as far as needed. Stops (and records an issue) after
    /// `maxSteps` items, since a periodic timer never runs out.
    public func run(maxSteps: Int = 100_000, sourceLocation: SourceLocation = #_sourceLocation) {
        var steps = 0
        while let time = lock.withLock({ queue.first(where: { $0.work.isPending })?.time }) {
            steps += 1
            if steps > maxSteps {
                Issue.record("TestScheduler.run() stopped after \(maxSteps) items: something reschedules forever (an interval?). Use advance(to:) instead.", sourceLocation: sourceLocation)
                return
            }
            guard let work = popDue(upTo: time) else { continue }
            work.run()
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
