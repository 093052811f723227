extension ObservableType {
    /// Sends `default` before completing if the stream completed without an element.
    ///
    /// ```swift
    /// search(query).ifEmpty(default: .noResults)
    /// ```
    public func ifEmpty(default element: Element) -> Observable<Element> {
        ifEmpty(switchTo: .just(element))
    }

    /// Continues with `other` if the stream completed without an element.
    ///
    /// ```swift
    /// cache.user().ifEmpty(switchTo: api.user())
    /// ```
    public func ifEmpty(switchTo other: Observable<Element>) -> Observable<Element> {
        let source = asObservable()
        return .make { sink in
            var isEmpty = true
            let fallback = SerialDisposable()
            let subscription = source.subscribeInside(AnyObserver<Element> { event in
                switch event {
                case .next(let element):
                    isEmpty = false
                    sink.onNext(element)
                case .error(let error):
                    sink.onError(error)
                case .completed:
                    guard isEmpty else { return sink.onCompleted() }
                    fallback.disposable = other.subscribeInside(sink)
                }
            })
            return Disposables.create(subscription, fallback)
        }
    }
}
