extension ObservableType {
    /// Pairs each element with `object`, held weakly; once `object` is gone, the stream completes.
    ///
    /// ```swift
    /// taps.withUnretained(self).subscribe(onNext: { owner, _ in owner.close() })
    /// ```
    public func withUnretained<Object: AnyObject, Out>(_ object: Object, resultSelector: @escaping (Object, Element) -> Out) -> Observable<Out> {
        let source = asObservable()
        return .make { [weak object] sink in
            source.subscribeInside(AnyObserver<Element> { event in
                switch event {
                case .next(let element):
                    guard let object else { return sink.onCompleted() }
                    sink.onNext(resultSelector(object, element))
                case .error(let error): sink.onError(error)
                case .completed: sink.onCompleted()
                }
            })
        }
    }

    /// Pairs each element with `object`, held weakly; once `object` is gone, the stream completes.
    public func withUnretained<Object: AnyObject>(_ object: Object) -> Observable<(Object, Element)> {
        withUnretained(object) { ($0, $1) }
    }
}
