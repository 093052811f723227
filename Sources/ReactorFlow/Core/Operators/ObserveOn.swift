extension ObservableType {
    /// Delivers every event on `scheduler`, in order.
    ///
    /// ```swift
    /// reactor.state.observe(on: MainScheduler.instance)
    /// ```
    public func observe(on scheduler: ImmediateSchedulerType) -> Observable<Element> {
        let source = asObservable()
        return .make { sink in
            let queue = LockedValue((events: FIFO<Event<Element>>(), scheduled: false))
            let drain = SerialDisposable()
            func deliverQueued() {
                while let event = queue.withLock({ state -> Event<Element>? in
                    let event = state.events.popFirst()
                    if event == nil { state.scheduled = false }
                    return event
                }) {
                    sink.on(event)
                }
            }
            let subscription = source.subscribeInside(AnyObserver<Element> { event in
                let mustSchedule = queue.withLock { state -> Bool in
                    state.events.append(event)
                    defer { state.scheduled = true }
                    return !state.scheduled
                }
                if mustSchedule { drain.disposable = scheduler.schedule(deliverQueued) }
            })
            return Disposables.create(subscription, drain)
        }
    }

    /// Subscribes to (and so runs the work of) this stream on `scheduler`.
    ///
    /// ```swift
    /// Observable.create(readLargeFile).subscribe(on: SerialDispatchQueueScheduler(qos: .utility))
    /// ```
    public func subscribe(on scheduler: ImmediateSchedulerType) -> Observable<Element> {
        let source = asObservable()
        return .make { sink in
            let subscription = SerialDisposable()
            let scheduled = scheduler.schedule {
                subscription.disposable = source.subscribeInside(sink)
            }
            return Disposables.create(scheduled, subscription)
        }
    }
}
