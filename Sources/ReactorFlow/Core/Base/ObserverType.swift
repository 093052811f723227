/// Something that receives the events of a stream.
///
/// ```swift
/// let printer = AnyObserver<Int> { print($0) }
/// Observable.of(1, 2).subscribe(printer)
/// ```
public protocol ObserverType<Element> {
    /// The type of the elements received.
    associatedtype Element

    /// Called for every event; never concurrently with itself when the events come from ReactorFlow.
    func on(_ event: Event<Element>)
}

extension ObserverType {
    /// Sends `.next(element)`.
    @inlinable public func onNext(_ element: Element) { on(.next(element)) }
    /// Sends `.completed`.
    @inlinable public func onCompleted() { on(.completed) }
    /// Sends `.error(error)`.
    public func onError(_ error: any Error) { on(.error(error)) }
    /// Erases the observer's type.
    public func asObserver() -> AnyObserver<Element> { AnyObserver(self) }

    /// An observer that transforms elements before forwarding them to this one (a transform that throws sends the
    /// error instead).
    ///
    /// ```swift
    /// let counts: AnyObserver<[Item]> = countLabel.rx.text.mapObserver { "\($0.count)" }
    /// ```
    public func mapObserver<Source>(_ transform: @escaping (Source) throws -> Element) -> AnyObserver<Source> {
        AnyObserver<Source> { event in self.on(event.map(transform)) }
    }
}

/// A type-erased observer, made from an event handler or from another observer.
///
/// ```swift
/// let observer = AnyObserver<String> { event in print(event) }
/// observer.onNext("hi")
/// ```
public struct AnyObserver<Element>: ObserverType {
    /// The closure that receives each event.
    public typealias EventHandler = (Event<Element>) -> Void

    @usableFromInline let handler: EventHandler
    /// The subscription this observer delivers into, when known: a producer that loops polls it to stop early
    /// when a downstream operator ended the subscription before it was even set up.
    @usableFromInline let lifetime: (any AnyObject & Cancelable)?

    /// Creates an observer that passes every event to `eventHandler`.
    @inlinable @inline(__always) public init(eventHandler: @escaping EventHandler) {
        self.handler = eventHandler
        self.lifetime = nil
    }

    @inlinable init(lifetime: (any AnyObject & Cancelable)?, eventHandler: @escaping EventHandler) {
        self.handler = eventHandler
        self.lifetime = lifetime
    }

    /// Creates an observer that forwards every event to `observer`.
    @inlinable public init<Observer: ObserverType>(_ observer: Observer) where Observer.Element == Element {
        if let any = observer as? AnyObserver<Element> {
            self = any
        } else {
            self.handler = observer.on
            self.lifetime = observer as? any AnyObject & Cancelable
        }
    }

    /// Passes `event` to the wrapped handler or observer.
    @inlinable @inline(__always) public func on(_ event: Event<Element>) { handler(event) }

    /// Returns `self`: it is already erased.
    public func asObserver() -> AnyObserver<Element> { self }
}
