import ReactorFlow

/// Records every event it receives with the virtual time it arrived at.
///
/// ```swift
/// let observer = scheduler.createObserver(Int.self)
/// source.subscribe(observer)
/// #expect(observer.events == [.next(10, 1), .completed(20)])
/// ```
public final class TestableObserver<Element>: ObserverType, @unchecked Sendable { // `recorded` is guarded by `lock`
    private let lock = Lock.make()
    private let scheduler: TestScheduler
    private var recorded: [Recorded<Event<Element>>] = []

    init(scheduler: TestScheduler) {
        self.scheduler = scheduler
    }

    /// Everything received so far, in order.
    public var events: [Recorded<Event<Element>>] { lock.withLock { recorded } }

    /// The elements received so far, without times.
    public var elements: [Element] { events.compactMap(\.value.element) }

    /// Records `event` at the scheduler's current virtual time.
    public func on(_ event: Event<Element>) {
        let time = scheduler.clock
        lock.withLock { recorded.append(Recorded(time: time, value: event)) }
    }
}

/// A test observable: hot ones emit at fixed times whoever listens, cold ones replay their script per subscription.
/// A hot one that has ended sends its terminal event at once to a later subscriber, as a `PublishSubject` does.
/// Both record when they were subscribed and disposed.
public final class TestableObservable<Element>: ObservableType, @unchecked Sendable { // `records` is guarded by `lock`
    private let lock = Lock.make()
    private var records: [SubscriptionRecord] = []
    private let scheduler: TestScheduler
    private let hot: PublishSubject<Element>?
    private let script: [Recorded<Event<Element>>]

    init(scheduler: TestScheduler, script: [Recorded<Event<Element>>], hot: Bool) {
        self.scheduler = scheduler
        self.script = script
        if hot {
            let subject = PublishSubject<Element>()
            self.hot = subject
            for recorded in script {
                scheduler.scheduleAt(recorded.time) { subject.on(recorded.value) }
            }
        } else {
            self.hot = nil
        }
    }

    /// When this observable was subscribed and disposed.
    public var subscriptions: [SubscriptionRecord] { lock.withLock { records } }

    /// Subscribes `observer` and records the subscription's virtual start and end times in `subscriptions`.
    public func subscribe<Observer: ObserverType>(_ observer: Observer) -> Disposable where Observer.Element == Element {
        let index = lock.withLock { () -> Int in
            records.append(SubscriptionRecord(scheduler.clock))
            return records.count - 1
        }
        let inner: Disposable
        if let hot {
            inner = hot.subscribe(observer)
        } else {
            let start = scheduler.clock
            inner = CompositeDisposable(disposables: script.map { recorded in
                scheduler.scheduleAt(start + recorded.time) { observer.on(recorded.value) }
            })
        }
        return Disposables.create { [self] in
            inner.dispose()
            lock.withLock {
                let subscribed = records[index].subscribe
                records[index] = SubscriptionRecord(subscribed, scheduler.clock)
            }
        }
    }
}

extension TestScheduler {
    /// An observable that emits `events` at their absolute times, to whoever is subscribed then.
    public func createHotObservable<Element>(_ events: [Recorded<Event<Element>>]) -> TestableObservable<Element> {
        TestableObservable(scheduler: self, script: events, hot: true)
    }

    /// An observable that emits `events` at times relative to each subscription.
    public func createColdObservable<Element>(_ events: [Recorded<Event<Element>>]) -> TestableObservable<Element> {
        TestableObservable(scheduler: self, script: events, hot: false)
    }

    /// An observer that records events with their virtual times.
    public func createObserver<Element>(_ type: Element.Type) -> TestableObserver<Element> {
        TestableObserver(scheduler: self)
    }

    /// Subscribes a recorder to `source` now and returns it.
    public func record<Source: ObservableConvertibleType>(_ source: Source, disposedBy bag: DisposeBag? = nil) -> TestableObserver<Source.Element> {
        let observer = createObserver(Source.Element.self)
        let subscription = source.asObservable().subscribe(observer)
        bag?.insert(subscription)
        return observer
    }

    /// The classic operator test: creates the observable at `created`, subscribes at `subscribed`, disposes at
    /// `disposed`, runs the clock to the end and returns what was recorded.
    public func start<Element>(created: TestTime = 100, subscribed: TestTime = 200, disposed: TestTime = 1000,
                               _ create: @escaping () -> Observable<Element>) -> TestableObserver<Element> {
        let observer = createObserver(Element.self)
        var source: Observable<Element>?
        var subscription: Disposable?
        scheduleAt(created) { source = create() }
        scheduleAt(subscribed) { subscription = source?.subscribe(observer) }
        scheduleAt(disposed) { subscription?.dispose() }
        advance(to: disposed)
        return observer
    }
}
