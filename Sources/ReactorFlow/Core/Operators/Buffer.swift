extension ObservableType {
    /// Collects elements into arrays: each array is sent when it holds `count` elements or when `timeSpan` has
    /// passed since the previous one was sent, whichever comes first (so an array sent by time may be empty). The
    /// last array is sent on completion; an error drops it.
    ///
    /// ```swift
    /// events.buffer(timeSpan: .seconds(5), count: 50, scheduler: scheduler).subscribe(onNext: upload)
    /// ```
    public func buffer(timeSpan: RxTimeInterval, count: Int, scheduler: SchedulerType) -> Observable<[Element]> {
        let source = asObservable()
        return .make { sink in
            let timer = SerialDisposable()
            var buffer: [Element] = []
            var window: UInt64 = 0
            // The source's events and the timer's ticks are handled one at a time, in arrival order.
            // The timer reaches the inbox weakly: the source's subscription is what keeps it, so nothing cycles.
            weak var weakInbox: SerializedObserver<TimedInput<Element>>?
            func startTimer(_ window: UInt64) {
                timer.disposable = scheduler.scheduleRelative(timeSpan) { weakInbox?.onNext(.tick(window)) }
            }
            let inbox = SerializedObserver(AnyObserver<TimedInput<Element>> { input in
                guard case .next(let input) = input else { return }
                switch input {
                case .tick(let tick):
                    guard tick == window else { return }
                case .event(.next(let element)):
                    buffer.append(element)
                    guard buffer.count == count else { return }
                case .event(.error(let error)):
                    buffer = []
                    return sink.onError(error)
                case .event(.completed):
                    let last = buffer
                    buffer = []
                    sink.onNext(last)
                    return sink.onCompleted()
                }
                let full = buffer
                buffer = []
                window += 1
                sink.onNext(full)
                startTimer(window)
            })
            weakInbox = inbox
            startTimer(0)
            let subscription = source.subscribeInside(AnyObserver<Element> { inbox.onNext(.event($0)) })
            return Disposables.create(timer, subscription)
        }
    }
}

/// What a timed operator handles, one at a time: an event of its source, or the tick of the timer it started for
/// a window.
enum TimedInput<Element> {
    case event(Event<Element>)
    case tick(UInt64)
}
