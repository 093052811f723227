extension ObservableType {
    /// Subscribes to the source `dueTime` later, on `scheduler`; disposing before then cancels the subscription.
    ///
    /// ```swift
    /// refresh.delaySubscription(.seconds(1), scheduler: MainScheduler.instance)
    /// ```
    public func delaySubscription(_ dueTime: RxTimeInterval, scheduler: SchedulerType) -> Observable<Element> {
        let source = asObservable()
        return .make { sink in
            let subscription = SerialDisposable()
            subscription.disposable = scheduler.scheduleRelative(dueTime) {
                subscription.disposable = source.subscribeInside(sink)
            }
            return subscription
        }
    }
}
