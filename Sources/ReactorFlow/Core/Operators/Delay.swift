extension ObservableType {
    /// Shifts every element and the completion later by `dueTime`; an error is forwarded at once.
    ///
    /// ```swift
    /// Observable.just(Mutation.increaseValue).delay(.milliseconds(500), scheduler: MainScheduler.instance)
    /// ```
    public func delay(_ dueTime: RxTimeInterval, scheduler: SchedulerType) -> Observable<Element> {
        let source = asObservable()
        return .make { sink in
            let downstream = SerializedObserver(AnyObserver(sink))
            let timers = CompositeDisposable()
            let subscription = source.subscribeInside(AnyObserver<Element> { event in
                if case .error = event {
                    timers.dispose()
                    downstream.on(event)
                    return
                }
                let holder = SingleAssignmentDisposable()
                guard let key = timers.insert(holder) else { return }
                holder.setDisposable(scheduler.scheduleRelative(dueTime) {
                    timers.forget(key)
                    downstream.on(event)
                })
            })
            return Disposables.create(subscription, timers)
        }
    }
}
