extension ObservableType {
    /// Emits `elements` first, then the stream's own events.
    ///
    /// ```swift
    /// Observable.of(3).startWith(1, 2) // 1, 2, 3
    /// ```
    @inlinable
    public func startWith(_ elements: Element...) -> Observable<Element> {
        let source = asObservable()
        return .make { sink in
            for element in elements {
                if sink.isDisposed { return Disposables.create() }
                sink.onNext(element)
            }
            return source.subscribeInside(sink)
        }
    }
}
