extension ObservableType {
    /// Emits an element only after `dueTime` has passed without another element. See `README.md` beside this file.
    ///
    /// ```swift
    /// searchText.debounce(.milliseconds(300), scheduler: MainScheduler.instance)
    /// ```
    public func debounce(_ dueTime: RxTimeInterval, scheduler: SchedulerType) -> Observable<Element> {
        let source = asObservable()
        return .make { sink in
            let downstream = SerializedObserver(AnyObserver(sink))
            let state = LockedValue(DebounceStateMachine<Element>())
            let timer = SerialDisposable()
            let subscription = source.subscribeInside(AnyObserver<Element> { event in
                switch event {
                case .next(let element):
                    let (generation, replaced) = state.withLock { $0.next(element) }
                    timer.disposable = scheduler.scheduleRelative(dueTime) {
                        if let element = state.withLock({ $0.timerFired(generation) }) { downstream.onNext(element) }
                    }
                    // Released after the lock, its deinitialisation being user code (B12), and after this element's
                    // timer is set, so that an element it sends comes after this one.
                    withExtendedLifetime(replaced) {}
                case .error(let error):
                    let dropped = state.withLock { $0.failed() }
                    withExtendedLifetime(dropped) {}
                    timer.dispose()
                    downstream.onError(error)
                case .completed:
                    let last = state.withLock { $0.completed() }
                    timer.dispose()
                    if let last { downstream.onNext(last) }
                    downstream.onCompleted()
                }
            })
            return Disposables.create(subscription, timer)
        }
    }
}
