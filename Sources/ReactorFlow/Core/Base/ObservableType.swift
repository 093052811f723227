/// Something that can be turned into an `Observable`.
public protocol ObservableConvertibleType<Element> {
    /// The type of the elements.
    associatedtype Element
    /// This value as an `Observable`.
    func asObservable() -> Observable<Element>
}

/// A stream that observers can subscribe to. Every operator is defined on this protocol.
public protocol ObservableType<Element>: ObservableConvertibleType {
    /// Starts delivering events to `observer` until the returned disposable is disposed or the stream ends.
    func subscribe<Observer: ObserverType>(_ observer: Observer) -> Disposable where Observer.Element == Element
}

extension ObservableType {
    /// Erases the stream to `Observable<Element>`, which every operator returns and accepts.
    public func asObservable() -> Observable<Element> {
        Observable.make { sink in self.subscribe(sink) }
    }
}

extension ObservableConvertibleType {
    /// How operators subscribe to their sources: directly, without the user-facing boundary that a public
    /// `subscribe` adds (see `Sink`, point 4).
    @inlinable
    func subscribeInside<Observer: ObserverType>(_ observer: Observer) -> Disposable where Observer.Element == Element {
        let observable = asObservable()
        if let core = observable.subjectCore { return core.subscribe(AnyObserver(observer)) }
        return observable.run(AnyObserver(observer))
    }
}

extension Observable {
    /// `subscribeInside` with an observer already erased, called on the observable's class: from code compiled once, a
    /// call through the protocol extension would look up the observable's type at run time. (`subscribeInside` keeps
    /// its own copy of these lines: calling this from it makes the optimiser inline less into `flatMap`, 0.5% more
    /// instructions per event.)
    @inlinable @inline(__always)
    final func runInside(_ observer: AnyObserver<Element>) -> Disposable {
        if let core = subjectCore { return core.subscribe(observer) }
        return run(observer)
    }
}
