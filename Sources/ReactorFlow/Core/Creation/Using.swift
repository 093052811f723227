extension ObservableType {
    /// A stream that owns a resource: `resourceFactory` makes it on each subscription, `observableFactory` makes
    /// the stream from it, and the resource is disposed when the subscription ends. A thrown error becomes an error
    /// event (and a resource already made is still disposed).
    ///
    /// ```swift
    /// Observable.using({ FileHandleDisposable(path) }, observableFactory: { $0.lines })
    /// ```
    public static func using<Resource: Disposable>(_ resourceFactory: @escaping () throws -> Resource,
                                                   observableFactory: @escaping (Resource) throws -> Observable<Element>) -> Observable<Element> {
        Observable<Element>.make { sink in
            var resource: Disposable = Disposables.create()
            do {
                let made = try resourceFactory()
                resource = made
                return Disposables.create(try observableFactory(made).subscribeInside(sink), resource)
            } catch {
                sink.onError(error)
                return resource
            }
        }
    }
}
