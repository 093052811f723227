extension ObservableType {
    /// Sends only the element at `index` (from 0), then completes; fails with `RxError.argumentOutOfRange` if the
    /// stream completes first, or if `index` is negative.
    ///
    /// ```swift
    /// Observable.of("a", "b", "c").element(at: 1) // "b"
    /// ```
    public func element(at index: Int) -> Observable<Element> {
        guard index >= 0 else { return .error(RxError.argumentOutOfRange) }
        let source = asObservable()
        return .make { sink in
            var remaining = index
            return source.subscribeInside(AnyObserver<Element> { event in
                switch event {
                case .next(let element):
                    if remaining == 0 {
                        sink.onNext(element)
                        sink.onCompleted()
                    }
                    remaining -= 1
                case .error(let error): sink.onError(error)
                case .completed: sink.onError(RxError.argumentOutOfRange)
                }
            })
        }
    }

    /// Passes on the one element and the completion; fails with `RxError.moreThanOneElement` at a second element
    /// and with `RxError.noElements` if the stream completes without one.
    ///
    /// ```swift
    /// Observable.of(1).single() // 1, completed
    /// ```
    public func single() -> Observable<Element> {
        single { _ in true }
    }

    /// `single()` counting only the elements for which `predicate` holds.
    public func single(_ predicate: @escaping (Element) throws -> Bool) -> Observable<Element> {
        let source = asObservable()
        return .make { sink in
            var seen = false
            return source.subscribeInside(AnyObserver<Element> { event in
                switch event {
                case .next(let element):
                    do {
                        guard try predicate(element) else { return }
                    } catch {
                        return sink.onError(error)
                    }
                    if seen { return sink.onError(RxError.moreThanOneElement) }
                    seen = true
                    sink.onNext(element)
                case .error(let error): sink.onError(error)
                case .completed: seen ? sink.onCompleted() : sink.onError(RxError.noElements)
                }
            })
        }
    }
}
