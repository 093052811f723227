import Foundation

extension ObservableType {
    /// Emits at most one element per `dueTime`: the first at once, and with `latest` the newest of each window
    /// when it ends. See `README.md` beside this file.
    ///
    /// ```swift
    /// refreshTaps.throttle(.seconds(1), latest: false, scheduler: MainScheduler.instance)
    /// ```
    public func throttle(_ dueTime: RxTimeInterval, latest: Bool = true, scheduler: SchedulerType) -> Observable<Element> {
        let source = asObservable()
        let window = dueTime.nanosecondCount ?? .max
        return .make { sink in
            let downstream = SerializedObserver(AnyObserver(sink))
            let state = LockedValue(ThrottleStateMachine<Element>(windowNanoseconds: window, latest: latest))
            let timer = SerialDisposable()
            func nowNanoseconds() -> Int64 { scheduler.now.nanosecondsSince1970 }
            let subscription = source.subscribeInside(AnyObserver<Element> { event in
                switch event {
                case .next(let element):
                    let (action, replaced) = state.withLock { $0.next(element, now: nowNanoseconds()) }
                    switch action {
                    case .emit(let element):
                        downstream.onNext(element)
                    case .startTimer(let delay):
                        timer.disposable = scheduler.scheduleRelative(.nanoseconds(Int(delay))) {
                            let (element, complete) = state.withLock { $0.timerFired(now: nowNanoseconds()) }
                            if let element { downstream.onNext(element) }
                            if complete { downstream.onCompleted() }
                        }
                    case .none:
                        break
                    }
                    // Released after the lock, its deinitialisation being user code (B12), and after this element
                    // was handled, so that an element it sends comes after this one.
                    withExtendedLifetime(replaced) {}
                case .error(let error):
                    timer.dispose()
                    downstream.onError(error)
                case .completed:
                    if state.withLock({ $0.completed() }) {
                        timer.dispose()
                        downstream.onCompleted()
                    }
                }
            })
            return Disposables.create(subscription, timer)
        }
    }
}
