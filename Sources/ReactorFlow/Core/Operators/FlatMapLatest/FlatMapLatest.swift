extension ObservableType {
    /// Maps each element to an observable and follows only the latest one: a new element disposes the previous
    /// inner subscription. See `README.md` beside this file for the exact semantics.
    ///
    /// ```swift
    /// query.flatMapLatest { api.search($0) } // typing "ab" cancels the search for "a"
    /// ```
    @inlinable
    public func flatMapLatest<Inner: ObservableConvertibleType>(_ selector: @escaping (Element) throws -> Inner) -> Observable<Inner.Element> {
        let source = asObservable()
        return .make { sink in
            FlatMapLatestSink(downstream: sink, selector: { try selector($0).asObservable() }).run(source)
        }
    }
}

extension ObservableType where Element: ObservableConvertibleType {
    /// Follows only the latest inner observable.
    @inlinable
    public func switchLatest() -> Observable<Element.Element> {
        flatMapLatest { $0 }
    }
}

/// Per-event code is `@inlinable` so that it is compiled for the element types (see `Sink`, point 5).
@usableFromInline
final class FlatMapLatestSink<SourceElement, Element>: @unchecked Sendable { // `state` is guarded by `lock`
    /// Its lock's word (see `InlineLock`): the first stored property.
    @usableFromInline var lockWord = 0
    @inlinable var lock: InlineLock { InlineLock(of: self) }
    @usableFromInline @exclusivity(unchecked) var state = FlatMapLatestStateMachine()
    @usableFromInline let downstream: SerializedObserver<Element>
    @usableFromInline let selector: (SourceElement) throws -> Observable<Element>
    @usableFromInline let inner = SerialDisposable()

    @inlinable
    init(downstream: Sink<Element>, selector: @escaping (SourceElement) throws -> Observable<Element>) {
        self.downstream = SerializedObserver(AnyObserver(downstream))
        self.selector = selector
    }

    @inlinable
    func run(_ source: Observable<SourceElement>) -> Disposable {
        let sourceSubscription = source.subscribeInside(AnyObserver<SourceElement> { [self] event in
            switch event {
            case .next(let element):
                let observable: Observable<Element>
                do { observable = try selector(element) } catch {
                    downstream.onError(error)
                    return
                }
                let generation = lock.withLock { state.sourceNext() }
                inner.disposable = Disposables.create() // the previous inner stops before the next one starts
                if let just = Just.matching(observable) {
                    // What subscribing to a `just` would do, now, without the subscription: its element, its end. Its
                    // generation is still the current one (source elements are serialized, A2), so the element
                    // needs no check.
                    downstream.onNext(just.element)
                    if lock.withLock({ state.innerCompleted(generation) }) { downstream.onCompleted() }
                    return
                }
                inner.disposable = observable.subscribeInside(AnyObserver<Element> { [self] innerEvent in
                    switch innerEvent {
                    case .next:
                        if lock.withLock({ state.innerNext(generation) }) { downstream.on(innerEvent) }
                    case .error:
                        if lock.withLock({ state.innerNext(generation) }) { downstream.on(innerEvent) }
                    case .completed:
                        if lock.withLock({ state.innerCompleted(generation) }) { downstream.onCompleted() }
                    }
                })
            case .error(let error):
                downstream.onError(error)
            case .completed:
                if lock.withLock({ state.sourceCompletedEvent() }) { downstream.onCompleted() }
            }
        })
        return Disposables.create(sourceSubscription, inner)
    }
}
