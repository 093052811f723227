extension ObservableType {
    /// Shifts every element and the completion later by `dueTime`; an error is forwarded at once.
    ///
    /// As RxSwift's: the events are delivered one per scheduled action, each `dueTime` after it arrived or, if
    /// the previous one went out later than that, just after it (on a `TestScheduler`, a tick later): a `just`
    /// delayed by 2 ticks sends its element at 202 and completes at 203.
    ///
    /// ```swift
    /// Observable.just(Mutation.increaseValue).delay(.milliseconds(500), scheduler: MainScheduler.instance)
    /// ```
    public func delay(_ dueTime: RxTimeInterval, scheduler: SchedulerType) -> Observable<Element> {
        let source = asObservable()
        let delay = dueTime.nanosecondCount ?? 0
        return .make { sink in
            let downstream = SerializedObserver(AnyObserver(sink))
            let state = LockedValue((waiting: FIFO<(arrival: Int64, event: Event<Element>)>(), active: false))
            let timer = SerialDisposable()
            func now() -> Int64 { scheduler.now.nanosecondsSince1970 }
            func deliverNext() {
                let (event, nextArrival) = state.withLock { state -> (Event<Element>?, Int64?) in
                    let event = state.waiting.popFirst()?.event
                    guard let next = state.waiting.elements.first else {
                        state.active = false
                        return (event, nil)
                    }
                    return (event, next.arrival)
                }
                if let event { downstream.on(event) }
                if let nextArrival {
                    let wait = nextArrival.saturatingAdding(delay).saturatingSubtracting(now())
                    timer.disposable = scheduler.scheduleRelative(.nanoseconds(Int(Swift.max(0, wait)))) {
                        deliverNext()
                    }
                }
            }
            let subscription = source.subscribeInside(AnyObserver<Element> { event in
                if case .error = event {
                    timer.dispose()
                    downstream.on(event)
                    return
                }
                let arrival = now() // the scheduler's clock, read outside the lock
                let start = state.withLock { state -> Bool in
                    state.waiting.append((arrival, event))
                    defer { state.active = true }
                    return !state.active
                }
                if start { timer.disposable = scheduler.scheduleRelative(dueTime) { deliverNext() } }
            })
            return Disposables.create(subscription, timer)
        }
    }
}
