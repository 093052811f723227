extension ObservableType {
    /// Pairs each element with its index, from 0, counted per subscription.
    ///
    /// ```swift
    /// Observable.of("a", "b").enumerated() // (0, "a"), (1, "b")
    /// ```
    public func enumerated() -> Observable<(index: Int, element: Element)> {
        let source = asObservable()
        return .make { sink in
            var next = 0
            return source.subscribeInside(AnyObserver<Element> { event in
                switch event {
                case .next(let element):
                    let (following, overflow) = next.addingReportingOverflow(1)
                    guard !overflow else { return sink.onError(RxError.overflow) }
                    defer { next = following }
                    sink.onNext((index: next, element: element))
                case .error(let error): sink.onError(error)
                case .completed: sink.onCompleted()
                }
            })
        }
    }
}
