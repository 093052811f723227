extension ObservableType {
    /// On each element or completion of `sampler`, sends the latest element of the source since the previous
    /// sample, if there is one (or `defaultValue`, if given, when there is none). The stream completes at the first
    /// sample after the source completed; an error of either fails it.
    ///
    /// ```swift
    /// positions.sample(Observable<Int>.interval(.seconds(1), scheduler: scheduler))
    /// ```
    public func sample<Sampler: ObservableType>(_ sampler: Sampler, defaultValue: Element? = nil) -> Observable<Element> {
        let source = asObservable()
        let ticks = sampler.asObservable()
        return .make { sink in
            let output = SerializedObserver(AnyObserver(sink))
            let state = LockedValue<(latest: Element?, sourceEnded: Bool)>((nil, false))
            let sourceSubscription = SingleAssignmentDisposable()
            sourceSubscription.setDisposable(source.subscribeInside(AnyObserver<Element> { event in
                switch event {
                case .next(let element):
                    // The element it replaces may hold the last reference to the user's objects: it dies after the
                    // lock (B12).
                    let replaced = state.withLock { exchange(&$0.latest, with: element) }
                    _ = consume replaced
                case .error(let error): output.onError(error)
                case .completed:
                    state.withLock { $0.sourceEnded = true }
                    sourceSubscription.dispose()
                }
            }))
            let samplerSubscription = ticks.subscribeInside(AnyObserver<Sampler.Element> { event in
                switch event {
                case .next, .completed:
                    let (element, ended) = state.withLock { current -> (Element?, Bool) in
                        defer { current.latest = nil }
                        return (current.latest ?? defaultValue, current.sourceEnded)
                    }
                    if let element { output.onNext(element) }
                    if ended { output.onCompleted() }
                case .error(let error):
                    output.onError(error)
                }
            })
            return Disposables.create(sourceSubscription, samplerSubscription)
        }
    }
}
