extension Observable {
    /// An observable whose every subscription runs `subscribe`. What it sends is held to the event grammar:
    /// anything after a terminal event, or after dispose, is dropped.
    ///
    /// ```swift
    /// let ticks = Observable<Int>.create { observer in
    ///     observer.onNext(1)
    ///     observer.onCompleted()
    ///     return Disposables.create()
    /// }
    /// ```
    public static func create(_ subscribe: @escaping (AnyObserver<Element>) -> Disposable) -> Observable<Element> {
        make { sink in subscribe(AnyObserver(sink)) }
    }

    /// An observable that calls `factory` for each subscription and subscribes to what it returns; a thrown
    /// error becomes an error event.
    ///
    /// ```swift
    /// let now = Observable.deferred { Observable.just(Date()) }
    /// ```
    public static func deferred(_ factory: @escaping () throws -> Observable<Element>) -> Observable<Element> {
        make { sink in
            do {
                return try factory().subscribeInside(sink)
            } catch {
                sink.onError(error)
                return Disposables.create()
            }
        }
    }
}
