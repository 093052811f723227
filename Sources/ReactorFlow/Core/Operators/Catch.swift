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

extension ObservableType {
    /// Subscribes to the observables of `sequence` one after another, moving to the next when one fails: the
    /// first to complete completes the result, and if every one fails, the last error ends it. An empty sequence
    /// completes at once. The sequence is iterated afresh for each subscription.
    ///
    /// ```swift
    /// Observable.catch(sequence: [primaryServer.fetch(), mirror.fetch(), cache.load()])
    /// ```
    public static func `catch`<Sources: Sequence>(sequence: Sources) -> Observable<Element> where Sources.Element == Observable<Element> {
        Observable<Element>.make { sink in Observable<Element>.runInTurn(sequence, into: sink, movingOnAfterError: true) }
    }
}
