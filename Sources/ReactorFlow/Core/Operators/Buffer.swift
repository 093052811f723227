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
            var buffer: [Element] = []
            var window: UInt64 = 0
            let inbox = TimedInbox<Element>(scheduler: scheduler, timeSpan: timeSpan) { input, inbox in
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
                inbox.startTimer(for: window)
            }
            inbox.startTimer(for: 0)
            let subscription = source.subscribeInside(AnyObserver<Element> { inbox.send(.event($0)) })
            return Disposables.create(inbox.timer, subscription)
        }
    }
}

/// What a timed operator handles, one at a time: an event of its source, or the tick of the timer it started for
/// a window.
enum TimedInput<Element> {
    case event(Event<Element>)
    case tick(UInt64)
}

/// Hands a timed operator (`buffer`, `window`) its source's events and its timer's ticks one at a time, in arrival
/// order. The timer reaches the inbox weakly: the source's subscription is what keeps it, so nothing cycles.
final class TimedInbox<Element> {
    let timer = SerialDisposable()
    private let scheduler: SchedulerType
    private let timeSpan: RxTimeInterval
    private var serialized: SerializedObserver<TimedInput<Element>>?

    /// `handle` gets each input with this inbox, to start the next window's timer.
    init(scheduler: SchedulerType, timeSpan: RxTimeInterval, handle: @escaping (TimedInput<Element>, TimedInbox<Element>) -> Void) {
        self.scheduler = scheduler
        self.timeSpan = timeSpan
        serialized = SerializedObserver(AnyObserver { [unowned self] event in
            if case .next(let input) = event { handle(input, self) }
        })
    }

    func send(_ input: TimedInput<Element>) {
        serialized?.onNext(input)
    }

    /// Ticks for `window` after the time span, unless a later timer replaces it first.
    func startTimer(for window: UInt64) {
        timer.disposable = scheduler.scheduleRelative(timeSpan) { [weak self] in self?.send(.tick(window)) }
    }
}
