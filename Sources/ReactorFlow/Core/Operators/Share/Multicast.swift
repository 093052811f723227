extension ObservableType {
    /// A connectable stream whose subscribers share one subscription to this stream, through a subject that
    /// `makeSubject` makes for each connection. See `README.md` beside this file.
    ///
    /// ```swift
    /// let latest = source.multicast(makeSubject: { BehaviorSubject(value: 0) })
    /// let connection = latest.connect()
    /// ```
    public func multicast<Subject: SubjectType>(makeSubject: @escaping () -> Subject)
        -> ConnectableObservable<Subject.Element> where Subject.Observer.Element == Element {
        let source = asObservable()
        return ConnectableObservable { MulticastSubject(makeSubject(), source: source) }
    }

    /// A connectable stream that pushes this stream's events into `subject` while connected; its subscribers
    /// subscribe to `subject`, which every connection reuses.
    ///
    /// ```swift
    /// let subject = PublishSubject<Int>()
    /// let shared = source.multicast(subject)
    /// ```
    public func multicast<Subject: SubjectType>(_ subject: Subject)
        -> ConnectableObservable<Subject.Element> where Subject.Observer.Element == Element {
        let shared = MulticastSubject(subject, source: asObservable())
        return ConnectableObservable { shared }
    }

    /// For each subscription: makes a subject with `subjectSelector`, lets `selector` build a stream on it, then
    /// connects this stream to the subject. Every use of the subject inside `selector` shares one subscription to
    /// this stream. An error thrown by either closure is sent to the subscriber.
    ///
    /// ```swift
    /// let pairs = source.multicast({ PublishSubject<Int>() }, selector: { shared in
    ///     Observable.zip(shared, shared.skip(1))
    /// })
    /// ```
    public func multicast<Subject: SubjectType, Result>(
        _ subjectSelector: @escaping () throws -> Subject,
        selector: @escaping (Observable<Subject.Element>) throws -> Observable<Result>
    ) -> Observable<Result> where Subject.Observer.Element == Element {
        let source = asObservable()
        return Observable<Result>.create { observer in
            do {
                let subject = MulticastSubject(try subjectSelector(), source: source)
                let connectable = ConnectableObservable { subject }
                let subscription = try selector(connectable).subscribe(observer)
                return Disposables.create(subscription, connectable.connect())
            } catch {
                observer.onError(error)
                return Disposables.create()
            }
        }
    }

    /// A connectable stream that shares one subscription to this stream, with a new `PublishSubject` for each
    /// connection; nothing flows until `connect()`.
    ///
    /// ```swift
    /// let shared = source.publish()
    /// shared.subscribe(onNext: { print($0) })
    /// let connection = shared.connect()
    /// ```
    public func publish() -> ConnectableObservable<Element> {
        multicast(makeSubject: { PublishSubject() })
    }

    /// A connectable stream that replays the latest `bufferSize` elements of the current connection to each new
    /// subscriber, with a new `ReplaySubject` for each connection; nothing flows until `connect()`.
    ///
    /// ```swift
    /// let shared = source.replay(1)
    /// let connection = shared.connect()
    /// ```
    public func replay(_ bufferSize: Int) -> ConnectableObservable<Element> {
        multicast(makeSubject: { ReplaySubject.create(bufferSize: bufferSize) })
    }

    /// `replay(_:)` with every element of the current connection.
    public func replayAll() -> ConnectableObservable<Element> {
        multicast(makeSubject: { ReplaySubject.createUnbounded() })
    }
}

/// A connection's subject, with the source it is fed from. The source's element type is hidden here, since
/// `multicast` lets a subject take one type and emit another.
struct MulticastSubject<Element> {
    /// How a subscriber subscribes to the subject.
    let subscribe: (AnyObserver<Element>) -> Disposable
    /// Subscribes the source into the subject. `admit` is asked before each event, with whether it ends the source,
    /// and says whether to pass it on.
    let feed: (_ admit: @escaping (_ isStopEvent: Bool) -> Bool) -> Disposable

    init<Subject: SubjectType, Input>(_ subject: Subject, source: Observable<Input>)
        where Subject.Element == Element, Subject.Observer.Element == Input {
        let input = subject.asObserver()
        subscribe = { subject.subscribe($0) }
        feed = { admit in
            source.subscribeInside(AnyObserver { event in if admit(event.isStopEvent) { input.on(event) } })
        }
    }
}
