extension ObservableType {
    /// Delivers every event on `scheduler`, in order, one per scheduled action, as RxSwift does: on a
    /// `TestScheduler`, events that arrive together go out a tick apart. On a `SerialDispatchQueueScheduler` (a
    /// `MainScheduler` included) each event is scheduled as it arrives, so work scheduled there after an event was
    /// sent runs after that event's delivery; on other schedulers the next event is scheduled once the previous one
    /// was delivered.
    ///
    /// ```swift
    /// reactor.state.observe(on: MainScheduler.instance)
    /// ```
    public func observe(on scheduler: ImmediateSchedulerType) -> Observable<Element> {
        let source = asObservable()
        if let serial = scheduler as? SerialDispatchQueueScheduler {
            // Its queue runs actions in the order they were scheduled, one at a time (A2).
            return .make { sink in
                source.subscribeInside(AnyObserver<Element> { event in
                    serial.scheduleWithoutCancel { sink.on(event) }
                })
            }
        }
        return .make { sink in
            let queue = LockedValue((events: FIFO<Event<Element>>(), scheduled: false, delivering: false, ranAtOnce: false))
            let drain = SerialDisposable()
            // One delivery is scheduled at a time. A scheduler that runs an action at once (`MainScheduler` on the main
            // queue) would nest one delivery per queued event: the delivery in progress takes the next one in its
            // loop instead. (An asynchronous scheduler may start the next delivery before this one returns; it then
            // leaves the event to this one, which has not given up its turn yet.)
            func deliverNext() {
                let alreadyDelivering = queue.withLock { state -> Bool in
                    if state.delivering { state.ranAtOnce = true }
                    defer { state.delivering = true }
                    return state.delivering
                }
                if alreadyDelivering { return }
                while let event = queue.withLock({ $0.events.popFirst() }) {
                    sink.on(event)
                    let more = queue.withLock { state -> Bool in
                        if state.events.isEmpty { state.scheduled = false }
                        state.ranAtOnce = false
                        if !state.scheduled { state.delivering = false }
                        return state.scheduled
                    }
                    guard more else { return }
                    drain.disposable = scheduler.schedule(deliverNext)
                    let again = queue.withLock { state -> Bool in
                        if !state.ranAtOnce { state.delivering = false }
                        return state.ranAtOnce
                    }
                    guard again else { return }
                }
                queue.withLock { $0.delivering = false }
            }
            let subscription = source.subscribeInside(AnyObserver<Element> { event in
                let mustSchedule = queue.withLock { state -> Bool in
                    state.events.append(event)
                    defer { state.scheduled = true }
                    return !state.scheduled
                }
                if mustSchedule { drain.disposable = scheduler.schedule(deliverNext) }
            })
            return Disposables.create(subscription, drain)
        }
    }

    /// Subscribes to (and so runs the work of) this stream on `scheduler`, and, as RxSwift does, disposes that
    /// subscription on `scheduler` too. Events stop reaching the subscriber as soon as it is disposed.
    ///
    /// ```swift
    /// Observable.create(readLargeFile).subscribe(on: SerialDispatchQueueScheduler(qos: .utility))
    /// ```
    public func subscribe(on scheduler: ImmediateSchedulerType) -> Observable<Element> {
        // As RxSwift's, a source that is not an `Observable` (a test observable, a type of your own) is subscribed as
        // it is: an erasing wrapper would end its subscription at its terminal event, not when this operator's
        // disposal reaches it on `scheduler`.
        let subscribeSource: (Sink<Element>) -> Disposable
        if let observable = self as? Observable<Element> {
            subscribeSource = { observable.subscribeInside($0) }
        } else {
            subscribeSource = { [self] in subscribe($0) }
        }
        return .make { sink in
            let subscription = SerialDisposable()
            let scheduled = scheduler.schedule {
                subscription.disposable = ScheduledDisposable(scheduler: scheduler, disposable: subscribeSource(sink))
            }
            return Disposables.create(scheduled, subscription)
        }
    }
}
