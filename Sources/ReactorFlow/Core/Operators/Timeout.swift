extension ObservableType {
    /// Fails with `RxError.timeout` if `dueTime` passes without an element (counted from the subscription and then
    /// from each element).
    ///
    /// ```swift
    /// api.login().timeout(.seconds(10), scheduler: MainScheduler.instance)
    /// ```
    public func timeout(_ dueTime: RxTimeInterval, scheduler: SchedulerType) -> Observable<Element> {
        timeout(dueTime, other: Observable.error(RxError.timeout), scheduler: scheduler)
    }

    /// Switches to `other` if `dueTime` passes without an element.
    public func timeout<Other: ObservableConvertibleType>(_ dueTime: RxTimeInterval, other: Other, scheduler: SchedulerType) -> Observable<Element> where Other.Element == Element {
        let source = asObservable()
        let fallback = other.asObservable()
        return .make { sink in
            let downstream = SerializedObserver(AnyObserver(sink))
            let state = LockedValue((generation: UInt64(0), timedOut: false))
            let timer = SerialDisposable()
            let sourceSubscription = SerialDisposable()
            func startTimer(_ generation: UInt64) {
                timer.disposable = scheduler.scheduleRelative(dueTime) {
                    let fire = state.withLock { state -> Bool in
                        guard state.generation == generation, !state.timedOut else { return false }
                        state.timedOut = true
                        return true
                    }
                    guard fire else { return }
                    sourceSubscription.disposable = fallback.subscribeInside(downstream)
                }
            }
            startTimer(0)
            sourceSubscription.disposable = source.subscribeInside(AnyObserver<Element> { event in
                let current = state.withLock { state -> UInt64? in
                    guard !state.timedOut else { return nil }
                    state.generation &+= 1
                    return state.generation
                }
                guard let current else { return }
                if case .next = event {
                    startTimer(current)
                } else {
                    timer.dispose()
                }
                downstream.on(event)
            })
            return Disposables.create(sourceSubscription, timer)
        }
    }
}
