extension ObservableType {
    /// Emits elements until `other` emits, then completes. An error from `other` ends the stream with that error;
    /// `other` completing without an element changes nothing.
    ///
    /// ```swift
    /// search.take(until: viewDidDisappear)
    /// ```
    public func take<Other: ObservableConvertibleType>(until other: Other) -> Observable<Element> {
        let source = asObservable()
        let trigger = other.asObservable()
        return .make { sink in
            let serialized = SerializedObserver(AnyObserver(sink))
            let triggerSubscription = trigger.subscribe { event in
                switch event {
                case .next: serialized.onCompleted()
                case .error(let error): serialized.onError(error)
                case .completed: break
                }
            }
            if sink.isDisposed { return triggerSubscription }
            return Disposables.create(triggerSubscription, source.subscribeInside(serialized))
        }
    }
}
