/// Errors raised by ReactorFlow's own operators, as RxSwift names them.
public enum RxError: Error, Equatable, CustomStringConvertible {
    /// `timeout` saw no element in time.
    case timeout
    /// A sequence that had to hold an element completed without one (`asSingle()`, `single()`).
    case noElements
    /// A sequence that may hold at most one element sent a second (`asSingle()`, `asMaybe()`, `single()`).
    case moreThanOneElement
    /// `element(at:)` was asked for an element past the end of the sequence.
    case argumentOutOfRange
    /// A counter (`enumerated()`, `element(at:)`) would overflow.
    case overflow
    /// Something went wrong that has no better name (RxSwift's catch-all, for code of your own).
    case unknown

    /// A sentence saying what went wrong, for logs and diagnostics.
    public var description: String {
        switch self {
        case .timeout: return "Sequence timeout."
        case .noElements: return "Sequence doesn't contain any elements."
        case .moreThanOneElement: return "Sequence contains more than one element."
        case .argumentOutOfRange: return "Argument out of range."
        case .overflow: return "Arithmetic overflow occurred."
        case .unknown: return "Unknown error occurred."
        }
    }
}
