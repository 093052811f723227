extension ObservableType {
    /// On error, continues with the observable `handler` returns; a thrown error ends the stream with it.
    ///
    /// ```swift
    /// api.fetch().catch { _ in .just([]) }
    /// ```
    public func `catch`(_ handler: @escaping (any Error) throws -> Observable<Element>) -> Observable<Element> {
        let source = asObservable()
        return .make { sink in
            let fallback = SingleAssignmentDisposable()
            let subscription = source.subscribeInside(AnyObserver<Element>(lifetime: sink) { event in
                guard case .error(let error) = event else {
                    sink.on(event)
                    return
                }
                do {
                    fallback.setDisposable(try handler(error).subscribeInside(sink))
                } catch {
                    sink.onError(error)
                }
            })
            return Disposables.create(subscription, fallback)
        }
    }

    /// On error, emits `element` and completes.
    ///
    /// ```swift
    /// api.isReachable().catchAndReturn(false)
    /// ```
    public func catchAndReturn(_ element: Element) -> Observable<Element> {
        `catch` { _ in .just(element) }
    }
}
