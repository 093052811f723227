import ReactorFlow

/// A value with the virtual time it was seen at.
public struct Recorded<Value>: CustomDebugStringConvertible {
    /// When, in ticks.
    public let time: TestTime
    /// What.
    public let value: Value

    /// Pairs `value` with the virtual `time` it happened at.
    public init(time: TestTime, value: Value) {
        self.time = time
        self.value = value
    }

    /// `value @ time`, as printed by a failing `#expect`.
    public var debugDescription: String { "\(value) @ \(time)" }
}

extension Recorded: Equatable where Value: Equatable {}

extension Recorded {
    /// A recorded `next` event: `.next(200, "a")`.
    public static func next<Element>(_ time: TestTime, _ element: Element) -> Recorded<Event<Element>> where Value == Event<Element> {
        Recorded(time: time, value: .next(element))
    }

    /// A recorded `completed` event: `.completed(300)`.
    public static func completed<Element>(_ time: TestTime, _ type: Element.Type = Element.self) -> Recorded<Event<Element>> where Value == Event<Element> {
        Recorded(time: time, value: .completed)
    }

    /// A recorded `error` event: `.error(300, TestError.boom)`.
    public static func error<Element>(_ time: TestTime, _ error: any Error, _ type: Element.Type = Element.self) -> Recorded<Event<Element>> where Value == Event<Element> {
        Recorded(time: time, value: .error(error))
    }
}

extension Recorded {
    /// The recorded events, as an array whose element type is written once: where type inference cannot tell the
    /// events' type from `.next(210, 2)` alone, `Recorded.events(.next(210, 2), .completed(250))` can.
    public static func events<Element>(_ recordedEvents: Recorded<Event<Element>>...) -> [Recorded<Event<Element>>] where Value == Event<Element> {
        recordedEvents
    }

    /// `events(_:...)` for an array literal: `Recorded.events([.next(210, 2), .completed(250)])`.
    public static func events<Element>(_ recordedEvents: [Recorded<Event<Element>>]) -> [Recorded<Event<Element>>] where Value == Event<Element> {
        recordedEvents
    }
}

/// When a test observable was subscribed and unsubscribed (`.max` while still subscribed).
public struct SubscriptionRecord: Equatable, CustomDebugStringConvertible, Sendable {
    /// The virtual time the subscription started.
    public let subscribe: TestTime
    /// The virtual time it was disposed, or `.max` while it is still running.
    public let unsubscribe: TestTime

    /// A subscription from `subscribe` to `unsubscribe`; leave `unsubscribe` out for one still running.
    public init(_ subscribe: TestTime, _ unsubscribe: TestTime = .max) {
        self.subscribe = subscribe
        self.unsubscribe = unsubscribe
    }

    /// `(subscribe, unsubscribe)`, or `(subscribe, ∞)` while running.
    public var debugDescription: String {
        unsubscribe == .max ? "(\(subscribe), never)" : "(\(subscribe), \(unsubscribe))"
    }
}

/// RxTest's name for a subscription's record: `Subscription(200, 1000)`.
public typealias Subscription = SubscriptionRecord
