import Foundation
import ReactorFlow

/// The clock of a `TestScheduler`, as RxTest defines it: virtual time and intervals are whole ticks (`Int`), and a
/// tick lasts the scheduler's resolution, in seconds. Tick 0 is 1 January 1970.
///
/// ```swift
/// let converter = TestSchedulerVirtualTimeConverter(resolution: 0.001)
/// converter.convertToVirtualTimeInterval(0.25) // 250
/// ```
public struct TestSchedulerVirtualTimeConverter: VirtualTimeConverterType, Sendable {
    /// A point in virtual time, in ticks.
    public typealias VirtualTimeUnit = Int
    /// A span of virtual time, in ticks.
    public typealias VirtualTimeIntervalUnit = Int

    /// The seconds in one tick.
    public let resolution: Double

    /// A converter whose tick lasts `resolution` seconds. A resolution that is not a positive finite number (which
    /// would make every conversion meaningless) counts as one second.
    public init(resolution: Double) {
        self.resolution = resolution.isFinite && resolution > 0 ? resolution : 1
    }

    /// The date of tick `virtualTime`.
    public func convertFromVirtualTime(_ virtualTime: Int) -> RxTime {
        Date(timeIntervalSince1970: Double(virtualTime) * resolution)
    }

    /// The tick of `time`, rounded to the nearest (half a tick rounds up, as in RxTest).
    public func convertToVirtualTime(_ time: RxTime) -> Int {
        ticks(time.timeIntervalSince1970)
    }

    /// The seconds in `virtualTimeInterval` ticks.
    public func convertFromVirtualTimeInterval(_ virtualTimeInterval: Int) -> TimeInterval {
        Double(virtualTimeInterval) * resolution
    }

    /// The ticks in `timeInterval` seconds, rounded to the nearest (half a tick rounds up, as in RxTest).
    public func convertToVirtualTimeInterval(_ timeInterval: TimeInterval) -> Int {
        ticks(timeInterval)
    }

    /// `time` moved by `offset` ticks; a result past either end of `Int` stops there.
    public func offsetVirtualTime(_ time: Int, offset: Int) -> Int {
        time.saturatingAdding(offset)
    }

    /// The ticks' order.
    public func compareVirtualTime(_ lhs: Int, _ rhs: Int) -> VirtualTimeComparison {
        lhs < rhs ? .lessThan : lhs == rhs ? .equal : .greaterThan
    }

    /// RxTest's rounding, `Int(seconds / resolution + 0.5)`, with a value beyond `Int` (or not a number) clamped
    /// rather than trapping.
    private func ticks(_ seconds: Double) -> Int {
        Int(saturating: seconds / resolution + 0.5)
    }
}
