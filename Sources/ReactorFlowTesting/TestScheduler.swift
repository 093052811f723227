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
public final class TestScheduler: VirtualTimeScheduler<TestSchedulerVirtualTimeConverter>, @unchecked Sendable { // its own fields are constants; the clock and queue are the superclass's, guarded by its lock
    /// The default times of `start(_:)`, as in RxTest.
    public enum Defaults {
        /// When `start(_:)` makes the observable.
        public static let created = 100
        /// When `start(_:)` subscribes to it.
        public static let subscribed = 200
        /// When `start(_:)` disposes the subscription.
        public static let disposed = 1000
    }

    /// The tick, in whole nanoseconds: relative times are counted in them, exactly, rather than through dates.
    private let nanosecondsPerTick: Int64
    private let simulateProcessingDelay: Bool

    /// - Parameters:
    ///   - initialClock: the starting time, in ticks.
    ///   - resolution: the seconds in one tick (RxTest's meaning): `0.001` for millisecond ticks. A tick lasts at
    ///     least a nanosecond; a resolution that is not a positive finite number counts as one second, as
    ///     `TestSchedulerVirtualTimeConverter`'s does.
    ///   - simulateProcessingDelay: whether work scheduled for now or the past runs one tick later.
    public init(initialClock: TestTime = 0, resolution: Double = 1.0, simulateProcessingDelay: Bool = true) {
        let seconds = resolution.isFinite && resolution > 0 ? resolution : 1
        nanosecondsPerTick = max(Int64(saturating: (seconds * 1e9).rounded()), 1)
        self.simulateProcessingDelay = simulateProcessingDelay
        super.init(initialClock: initialClock,
                   converter: TestSchedulerVirtualTimeConverter(resolution: Double(nanosecondsPerTick) / 1e9))
    }

    /// A scheduler whose tick lasts `resolution`: `TestScheduler(resolution: .milliseconds(1))`. A resolution that
    /// is not positive (or `.never`) counts as one second.
    public convenience init(initialClock: TestTime = 0, resolution: RxTimeInterval, simulateProcessingDelay: Bool = true) {
        let nanoseconds = resolution.nanosecondCount ?? 0
        self.init(initialClock: initialClock, resolution: nanoseconds > 0 ? Double(nanoseconds) / 1e9 : 1,
                  simulateProcessingDelay: simulateProcessingDelay)
    }

    /// The number of ticks in `interval`, rounded to the nearest tick.
    public func ticks(_ interval: RxTimeInterval) -> TestTime {
        guard let nanoseconds = interval.nanosecondCount else { return .max }
        let (sum, overflow) = nanoseconds.addingReportingOverflow(nanosecondsPerTick / 2)
        return overflow ? .max : TestTime(sum / nanosecondsPerTick)
    }

    /// Whether work is waiting to run.
    public var hasPendingWork: Bool { pendingCount > 0 }

    /// The number of scheduled items not yet run or cancelled.
    public var pendingWorkCount: Int { pendingCount }

    /// RxTest's processing delay: work scheduled relative to now for now or the past runs one tick later, or at the
    /// current tick without the delay; work due later runs when it is due.
    override public func adjustScheduledTime(_ time: TestTime) -> TestTime {
        processingDelayed(time, now: clock)
    }

    /// Queues `action` at the current virtual time plus `dueTime`, counted in whole ticks (rounded to the nearest)
    /// and moved as `adjustScheduledTime(_:)` says: a due time that is not in the future runs one tick later with
    /// the processing delay, at the current tick without it.
    override public func scheduleRelative(_ dueTime: RxTimeInterval, action: @escaping () -> Void) -> Disposable {
        guard dueTime != .never else { return Disposables.create() }
        let now = clock
        return scheduleAbsolute(at: processingDelayed(now.saturatingAdding(ticks(dueTime)), now: now), action)
    }

    private func processingDelayed(_ time: TestTime, now: TestTime) -> TestTime {
        guard time <= now else { return time }
        return simulateProcessingDelay ? now.saturatingAdding(1) : now
    }

    /// Runs `action` at virtual time `time`, as it is (at once on the next run, if `time` has passed).
    @discardableResult
    public func scheduleAt(_ time: TestTime, action: @escaping () -> Void) -> Disposable {
        scheduleAbsolute(at: time, action)
    }

    /// Runs, in time order, everything due up to and including `time`, then sets the clock to `time`. A time before
    /// the clock runs only what is overdue and leaves the clock where it is (RxTest's `advanceTo(_:)` sets it back).
    /// Called from inside work the scheduler runs, it does nothing.
    public func advance(to time: TestTime) {
        _ = run(upTo: time, maxSteps: nil, clockAfterwards: { max($0, time) })
    }

    /// Advances the clock by `interval` (`.seconds(0)` runs what is due at the current tick).
    public func advance(by interval: RxTimeInterval) {
        advance(to: clock.saturatingAdding(ticks(interval)))
    }

    /// Advances the clock by `ticks`.
    public func advance(byTicks ticks: TestTime) {
        advance(to: clock.saturatingAdding(ticks))
    }

    /// Runs everything scheduled, moving the clock as far as needed, until nothing is left or `stop()` is called
    /// (RxTest's `start()`). Stops and records an issue after a million items, since a periodic timer that nobody
    /// disposes never runs out; `start(maxSteps:)` sets another bound. Either reports at the caller's line.
    override public func start(fileID: String = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column) {
        start(maxSteps: Self.defaultMaxSteps, fileID: fileID, filePath: filePath, line: line, column: column)
    }

    /// `start()` that stops and records an issue, at the caller's line, after `maxSteps` items.
    public func start(maxSteps: Int = defaultMaxSteps, fileID: String = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column) {
        let maxSteps = max(0, maxSteps)
        guard !run(upTo: nil, maxSteps: maxSteps) else { return }
        FailureSite(fileID: fileID, filePath: filePath, line: line, column: column)
            .record("TestScheduler.start() stopped after \(maxSteps) items: something reschedules forever (an interval nobody disposes?). Use advance(to:) instead.")
    }

    /// The same as `start()`.
    public func run(maxSteps: Int = defaultMaxSteps, fileID: String = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column) {
        start(maxSteps: maxSteps, fileID: fileID, filePath: filePath, line: line, column: column)
    }

    /// The items `start()` runs before it decides that something reschedules forever.
    public static let defaultMaxSteps = 1_000_000
}
