/// One event of a stream. A subscription sees `next* (error | completed)?` and nothing after the terminal event.
public enum Event<Element> {
    /// An element.
    case next(Element)
    /// The stream failed; nothing follows.
    case error(any Error)
    /// The stream finished; nothing follows.
    case completed

    /// Whether this is `error` or `completed`.
    @inlinable @inline(__always) public var isStopEvent: Bool {
        if case .next = self { return false }
        return true
    }

    /// The element of a `next` event.
    @inlinable public var element: Element? {
        if case .next(let element) = self { return element }
        return nil
    }

    /// The error of an `error` event.
    public var error: (any Error)? {
        if case .error(let error) = self { return error }
        return nil
    }

    /// Whether this is `completed`.
    public var isCompleted: Bool {
        if case .completed = self { return true }
        return false
    }

    /// Transforms the element of a `next` event; a thrown error becomes an `error` event.
    public func map<Result>(_ transform: (Element) throws -> Result) -> Event<Result> {
        switch self {
        case .next(let element):
            do { return .next(try transform(element)) } catch { return .error(error) }
        case .error(let error): return .error(error)
        case .completed: return .completed
        }
    }
}

extension Event: Sendable where Element: Sendable {}

extension Event: CustomDebugStringConvertible {
    /// The event as `next(value)`, `error(error)` or `completed`, for logs and failing tests.
    public var debugDescription: String {
        switch self {
        case .next(let element): return "next(\(element))"
        case .error(let error): return "error(\(error))"
        case .completed: return "completed"
        }
    }
}

extension Event: Equatable where Element: Equatable {
    /// Errors compare equal when they are equal `Equatable` values of the same type, otherwise when they print the same.
    public static func == (lhs: Event, rhs: Event) -> Bool {
        switch (lhs, rhs) {
        case (.next(let l), .next(let r)): return l == r
        case (.completed, .completed): return true
        case (.error(let l), .error(let r)): return errorsAreEqual(l, r)
        default: return false
        }
    }
}

/// Compares two errors as values where their type allows it.
public func errorsAreEqual(_ lhs: any Error, _ rhs: any Error) -> Bool {
    if let equatable = (lhs as Any) as? any Equatable {
        return equatable.isEqual(toAny: rhs)
    }
    return String(reflecting: lhs) == String(reflecting: rhs)
}

extension Equatable {
    fileprivate func isEqual(toAny other: Any) -> Bool {
        guard let other = other as? Self else { return false }
        return self == other
    }
}
