extension ObservableType {
    /// Each event as an element: the source's elements, error or completion become `Event`s, followed by
    /// completion; the stream itself never fails.
    ///
    /// ```swift
    /// request.materialize() // .next(response), .completed — or .error(e) — then completes
    /// ```
    public func materialize() -> Observable<Event<Element>> {
        let source = asObservable()
        return .make { sink in
            source.subscribeInside(AnyObserver<Element> { event in
                sink.onNext(event)
                if event.isStopEvent { sink.onCompleted() }
            })
        }
    }
}

/// A type that holds an `Event`: what `dematerialize()` turns back into events.
public protocol EventConvertible<Element> {
    /// The type of the event's element.
    associatedtype Element
    /// The event.
    var event: Event<Element> { get }
}

extension Event: EventConvertible {
    /// Itself.
    public var event: Event<Element> { self }
}

extension ObservableType where Element: EventConvertible {
    /// The events that `materialize()` made elements of, as events again.
    public func dematerialize() -> Observable<Element.Element> {
        let source = asObservable()
        return .make { sink in
            source.subscribeInside(AnyObserver<Element> { event in
                switch event {
                case .next(let element): sink.on(element.event)
                case .error(let error): sink.onError(error)
                case .completed: sink.onCompleted()
                }
            })
        }
    }
}
