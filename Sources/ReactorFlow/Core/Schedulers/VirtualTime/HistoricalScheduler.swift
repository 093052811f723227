import Foundation

/// A virtual-time scheduler whose clock is a `Date`, for replaying recorded events at their original times without
/// waiting for them.
///
/// ```swift
/// let scheduler = HistoricalScheduler(initialClock: recording.start)
/// for entry in recording.entries {
///     _ = scheduler.scheduleAbsoluteVirtual(entry, time: entry.date) { entry in
///         log.onNext(entry)
///         return Disposables.create()
///     }
/// }
/// scheduler.start() // runs every entry in date order; `scheduler.now` follows them
/// ```
open class HistoricalScheduler: VirtualTimeScheduler<HistoricalSchedulerTimeConverter> {
    /// A scheduler whose clock starts at `initialClock`.
    public init(initialClock: RxTime = Date(timeIntervalSince1970: 0)) {
        super.init(initialClock: initialClock, converter: HistoricalSchedulerTimeConverter())
    }
}

/// The clock of a `HistoricalScheduler`: virtual time is a `Date`, a virtual interval is seconds.
public struct HistoricalSchedulerTimeConverter: VirtualTimeConverterType, Sendable {
    /// A converter; it has no settings.
    public init() {}

    /// The date itself.
    public func convertFromVirtualTime(_ virtualTime: RxTime) -> RxTime { virtualTime }
    /// The date itself.
    public func convertToVirtualTime(_ time: RxTime) -> RxTime { time }
    /// The seconds themselves.
    public func convertFromVirtualTimeInterval(_ virtualTimeInterval: TimeInterval) -> TimeInterval { virtualTimeInterval }
    /// The seconds themselves.
    public func convertToVirtualTimeInterval(_ timeInterval: TimeInterval) -> TimeInterval { timeInterval }
    /// `time` plus `offset` seconds.
    public func offsetVirtualTime(_ time: RxTime, offset: TimeInterval) -> RxTime { time.addingTimeInterval(offset) }

    /// The dates' order.
    public func compareVirtualTime(_ lhs: RxTime, _ rhs: RxTime) -> VirtualTimeComparison {
        lhs < rhs ? .lessThan : lhs == rhs ? .equal : .greaterThan
    }
}
