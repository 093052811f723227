extension ObservableType {
    /// Combines each element with the latest element of `second`; elements that arrive before `second` has
    /// emitted are dropped. Completes with this stream; an error from either ends it.
    ///
    /// ```swift
    /// submitTaps.withLatestFrom(form) { _, form in form }
    /// ```
    public func withLatestFrom<Second: ObservableConvertibleType, Result>(
        _ second: Second,
        resultSelector: @escaping (Element, Second.Element) throws -> Result
    ) -> Observable<Result> {
        let source = asObservable()
        let other = second.asObservable()
        return .make { sink in
            let downstream = SerializedObserver(AnyObserver(sink))
            let latest = LockedValue<Second.Element?>(nil)
            let otherSubscription = other.subscribeInside(AnyObserver<Second.Element> { event in
                switch event {
                case .next(let element):
                    let replaced = latest.withLock { exchange(&$0, with: element) }
                    withExtendedLifetime(replaced) {} // after the lock: its deinitialisation is user code (B12)
                case .error(let error): downstream.onError(error)
                case .completed: break
                }
            })
            let sourceSubscription = source.subscribeInside(AnyObserver<Element> { event in
                switch event {
                case .next(let element):
                    guard let value = latest.current else { return }
                    do { downstream.onNext(try resultSelector(element, value)) } catch { downstream.onError(error) }
                case .error(let error): downstream.onError(error)
                case .completed: downstream.onCompleted()
                }
            })
            return Disposables.create(otherSubscription, sourceSubscription)
        }
    }

    /// Replaces each element with the latest element of `second`.
    ///
    /// ```swift
    /// refreshTaps.withLatestFrom(reactor.state)
    /// ```
    public func withLatestFrom<Second: ObservableConvertibleType>(_ second: Second) -> Observable<Second.Element> {
        withLatestFrom(second) { $1 }
    }
}
