extension ObservableType {
    /// Runs side effects at each step of a subscription, without changing its events. An error a handler throws
    /// ends the stream with that error in place of the event: thrown before the event (`onNext`, `onError`,
    /// `onCompleted`), the event is not forwarded; thrown after it (`afterNext`), it follows the element.
    ///
    /// ```swift
    /// request.do(onSubscribe: { spinner.start() }, onDispose: { spinner.stop() })
    /// ```
    public func `do`(
        onNext: ((Element) throws -> Void)? = nil,
        afterNext: ((Element) throws -> Void)? = nil,
        onError: ((any Error) throws -> Void)? = nil,
        afterError: ((any Error) throws -> Void)? = nil,
        onCompleted: (() throws -> Void)? = nil,
        afterCompleted: (() throws -> Void)? = nil,
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
                    do {
                        try onError?(error)
                        sink.onError(error)
                        try afterError?(error) // the stream has ended: what this throws goes nowhere
                    } catch {
                        sink.onError(error)
                    }
                case .completed:
                    do {
                        try onCompleted?()
                        sink.onCompleted()
                        try afterCompleted?() // the stream has ended: what this throws goes nowhere
                    } catch {
                        sink.onError(error)
                    }
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
