extension ObservableType {
    /// Sends the last `count` elements when the stream completes; an error goes through at once, without them.
    /// A negative `count` takes none.
    ///
    /// ```swift
    /// Observable.of(1, 2, 3, 4).takeLast(2) // 3, 4
    /// ```
    public func takeLast(_ count: Int) -> Observable<Element> {
        let source = asObservable()
        let count = Swift.max(0, count)
        return .make { sink in
            var kept = FIFO<Element>()
            return source.subscribeInside(AnyObserver<Element> { event in
                switch event {
                case .next(let element):
                    guard count > 0 else { return }
                    kept.append(element)
                    if kept.count > count { _ = kept.popFirst() }
                case .error(let error):
                    kept = FIFO()
                    sink.onError(error)
                case .completed:
                    let elements = kept
                    kept = FIFO()
                    for element in elements.elements { sink.onNext(element) }
                    sink.onCompleted()
                }
            })
        }
    }
}
