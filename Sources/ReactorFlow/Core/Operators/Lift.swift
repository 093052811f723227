extension ObservableType {
    /// Builds a single-source operator. For each subscription `makeHandler` receives the downstream sink and returns
    /// the handler for upstream events; per-subscription state lives in that closure (events arrive serially, A2).
    @inlinable
    func lift<Result>(_ makeHandler: @escaping (Sink<Result>) -> (Event<Element>) -> Void) -> Observable<Result> {
        let source = asObservable()
        return .make { sink in
            source.subscribeInside(AnyObserver(lifetime: sink, eventHandler: makeHandler(sink)))
        }
    }
}

/// Per-subscription state of a single-source operator, in place of a captured `var`. The operator's handler is the
/// only code that touches it and is never called concurrently with itself (A2), so the runtime's exclusivity check
/// on a captured `var` (about a tenth of such an operator's cost per event) is not needed.
@usableFromInline
final class OperatorState<Value> {
    @usableFromInline @exclusivity(unchecked) var value: Value
    @inlinable init(_ value: Value) { self.value = value }
}

extension ObserverType {
    /// Forwards an upstream terminal event; ignores `next`.
    @inlinable
    func forwardStop<Other>(_ event: Event<Other>) {
        switch event {
        case .next: break
        case .error(let error): on(.error(error))
        case .completed: on(.completed)
        }
    }
}

/// Errors raised by ReactorFlow's own operators.
public enum RxError: Error, Equatable, CustomStringConvertible {
    /// `timeout` saw no element in time.
    case timeout

    /// A sentence saying what went wrong, for logs and diagnostics.
    public var description: String {
        switch self {
        case .timeout: return "Sequence timeout."
        }
    }
}
