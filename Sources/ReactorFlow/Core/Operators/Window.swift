extension ObservableType {
    /// Splits the stream into windows, each an observable of its elements: a window closes, and the next opens,
    /// when it holds `count` elements or when `timeSpan` has passed since it opened. The first window opens on
    /// subscription. An error or completion of the source ends the current window and the stream of windows.
    ///
    /// The source stays subscribed while the stream of windows or a window is subscribed.
    ///
    /// ```swift
    /// clicks.window(timeSpan: .seconds(1), count: 10, scheduler: scheduler).flatMap { $0.toArray().asObservable() }
    /// ```
    public func window(timeSpan: RxTimeInterval, count: Int, scheduler: SchedulerType) -> Observable<Observable<Element>> {
        let source = asObservable()
        return .make { sink in
            let sourceSubscription = SingleAssignmentDisposable()
            let refCount = RefCountDisposable(disposable: sourceSubscription)
            var subject = PublishSubject<Element>()
            var received = 0
            var window: UInt64 = 0

            func shared(_ subject: PublishSubject<Element>) -> Observable<Element> {
                Observable<Element>.make { inner in
                    let kept = refCount.retain()
                    return Disposables.create(subject.subscribeInside(inner), kept)
                }
            }

            let inbox = TimedInbox<Element>(scheduler: scheduler, timeSpan: timeSpan) { input, inbox in
                switch input {
                case .tick(let tick):
                    guard tick == window else { return }
                case .event(.next(let element)):
                    subject.onNext(element)
                    received += 1
                    guard received == count else { return }
                case .event(.error(let error)):
                    subject.onError(error)
                    return sink.onError(error)
                case .event(.completed):
                    subject.onCompleted()
                    return sink.onCompleted()
                }
                let closed = subject
                subject = PublishSubject()
                received = 0
                window += 1
                closed.onCompleted()
                sink.onNext(shared(subject))
                inbox.startTimer(for: window)
            }

            sink.onNext(shared(subject))
            inbox.startTimer(for: 0)
            sourceSubscription.setDisposable(source.subscribeInside(AnyObserver<Element> { inbox.send(.event($0)) }))
            return Disposables.create(inbox.timer, refCount)
        }
    }
}
