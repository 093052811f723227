extension ObservableType {
    /// Drops elements until `other` emits, then passes them on. An error from `other` fails the stream; `other`
    /// completing without an element changes nothing. If the source completes before `other` emitted, the stream
    /// ends silently, with no completion (as in RxSwift).
    ///
    /// ```swift
    /// scrollOffsets.skip(until: viewDidAppear)
    /// ```
    public func skip<Other: ObservableType>(until other: Other) -> Observable<Element> {
        let source = asObservable()
        let trigger = other.asObservable()
        return .make { sink in
            let output = SerializedObserver(AnyObserver(sink))
            let forwarding = LockedValue(false)
            let sourceSubscription = source.subscribeInside(AnyObserver<Element> { event in
                switch event {
                case .next:
                    if forwarding.withLock({ $0 }) { output.on(event) }
                case .error:
                    output.on(event)
                case .completed:
                    if forwarding.withLock({ $0 }) { output.on(event) } else { sink.dispose() }
                }
            })
            let triggerSubscription = SingleAssignmentDisposable()
            triggerSubscription.setDisposable(trigger.subscribeInside(AnyObserver<Other.Element> { event in
                switch event {
                case .next:
                    forwarding.withLock { $0 = true }
                    triggerSubscription.dispose()
                case .error(let error):
                    output.onError(error)
                case .completed:
                    triggerSubscription.dispose()
                }
            }))
            return Disposables.create(sourceSubscription, triggerSubscription)
        }
    }
}
