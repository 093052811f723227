import Foundation

/// How a `VirtualTimeScheduler` reads and moves its clock: its time and interval types, and their conversions to and
/// from dates and seconds.
///
/// ```swift
/// struct TickConverter: VirtualTimeConverterType {
///     func convertFromVirtualTime(_ virtualTime: Int) -> RxTime { Date(timeIntervalSince1970: Double(virtualTime)) }
///     func convertToVirtualTime(_ time: RxTime) -> Int { Int(time.timeIntervalSince1970.rounded()) }
///     func convertFromVirtualTimeInterval(_ virtualTimeInterval: Int) -> TimeInterval { Double(virtualTimeInterval) }
///     func convertToVirtualTimeInterval(_ timeInterval: TimeInterval) -> Int { Int(timeInterval.rounded()) }
///     func offsetVirtualTime(_ time: Int, offset: Int) -> Int { time + offset }
///     func compareVirtualTime(_ lhs: Int, _ rhs: Int) -> VirtualTimeComparison {
///         lhs < rhs ? .lessThan : lhs == rhs ? .equal : .greaterThan
///     }
/// }
/// ```
public protocol VirtualTimeConverterType {
    /// A point in virtual time.
    associatedtype VirtualTimeUnit
    /// A span of virtual time.
    associatedtype VirtualTimeIntervalUnit

    /// The date a virtual time stands for; the scheduler's `now`.
    func convertFromVirtualTime(_ virtualTime: VirtualTimeUnit) -> RxTime
    /// The virtual time of a date; used for work scheduled relative to `now`.
    func convertToVirtualTime(_ time: RxTime) -> VirtualTimeUnit
    /// The seconds a virtual interval stands for.
    func convertFromVirtualTimeInterval(_ virtualTimeInterval: VirtualTimeIntervalUnit) -> TimeInterval
    /// The virtual interval of a number of seconds.
    func convertToVirtualTimeInterval(_ timeInterval: TimeInterval) -> VirtualTimeIntervalUnit
    /// `time` moved by `offset`.
    func offsetVirtualTime(_ time: VirtualTimeUnit, offset: VirtualTimeIntervalUnit) -> VirtualTimeUnit
    /// The order of two virtual times (the time type need not be `Comparable`).
    func compareVirtualTime(_ lhs: VirtualTimeUnit, _ rhs: VirtualTimeUnit) -> VirtualTimeComparison
}

/// The order of two virtual times.
public enum VirtualTimeComparison: Sendable {
    /// The first is earlier.
    case lessThan
    /// They are the same time.
    case equal
    /// The first is later.
    case greaterThan
}
