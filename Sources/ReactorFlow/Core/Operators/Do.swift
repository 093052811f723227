extension ObservableType {
    /// Runs side effects at each step of a subscription, without changing its events. A thrown error from
    /// `onNext` ends the stream with that error.
    ///
    /// ```swift
    /// request.do(onSubscribe: { spinner.start() }, onDispose: { spinner.stop() })
    /// ```
    public func `do`(
        onNext: ((Element) throws -> Void)? = nil,
        afterNext: ((Element) throws -> Void)? = nil,
        onError: ((any Error) -> Void)? = nil,
        afterError: ((any Error) -> Void)? = nil,
        onCompleted: (() -> Void)? = nil,
        afterCompleted: (() -> Void)? = nil,
        onSubscribe: (() -> Void)? = nil,
        onSubscribed: (() -> Void)? = nil,
        onDispose: (() -> Void)? = nil
    ) -> Observable<Element> {
        let source = asObservable()
        return .make { sink in
            onSubscribe?()
            let subscription = source.subscribeInside(AnyObserver<Element> { event in
                switch event {
                case .next(let element):
                    do {
                        try onNext?(element)
                        sink.onNext(element)
                        try afterNext?(element)
                    } catch {
                        sink.onError(error)
                    }
                case .error(let error):
                    onError?(error)
                    sink.onError(error)
                    afterError?(error)
                case .completed:
                    onCompleted?()
                    sink.onCompleted()
                    afterCompleted?()
                }
            })
            onSubscribed?()
            guard let onDispose else { return subscription }
            return Disposables.create {
                subscription.dispose()
                onDispose()
            }
        }
    }
}
