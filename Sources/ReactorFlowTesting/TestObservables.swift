import ReactorFlow
import Testing

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

/// A test observable, as RxTest's. Both kinds record when they were subscribed and disposed.
///
/// - A hot one sends each recorded event at its absolute time to every observer subscribed then, exactly as
///   recorded: events after an `error` or `completed` still go out, and a later subscriber gets only what comes
///   after it subscribed. (A reactor's `action` ignores the error and keeps taking later actions.)
/// - A cold one plays its script to each subscriber, at times relative to the subscription.
public final class TestableObservable<Element>: ObservableType, @unchecked Sendable { // `records` and `observers` are guarded by `lock`
    private let lock = Lock.make()
    private var records: [SubscriptionRecord] = []
    private var observers: [UInt64: AnyObserver<Element>] = [:]
    private var nextKey: UInt64 = 0
    private let scheduler: TestScheduler
    private let isHot: Bool
    /// The events this observable was made with, with their times.
    public let recordedEvents: [Recorded<Event<Element>>]

    init(scheduler: TestScheduler, script: [Recorded<Event<Element>>], hot: Bool) {
        self.scheduler = scheduler
        self.recordedEvents = script
        self.isHot = hot
        guard hot else { return }
        for recorded in script {
            scheduler.scheduleAt(recorded.time) { [weak self] in
                guard let self else { return }
                // In subscription order; an observer that subscribes or disposes meanwhile counts from the next event.
                let current = lock.withLock { observers.sorted { $0.key < $1.key }.map(\.value) }
                for observer in current { observer.on(recorded.value) }
            }
        }
    }

    /// When this observable was subscribed and disposed.
    public var subscriptions: [SubscriptionRecord] { lock.withLock { records } }

    /// Subscribes `observer` and records the subscription's virtual start and end times in `subscriptions`.
    public func subscribe<Observer: ObserverType>(_ observer: Observer) -> Disposable where Observer.Element == Element {
        let (index, key) = lock.withLock { () -> (Int, UInt64) in
            records.append(SubscriptionRecord(scheduler.clock))
            nextKey += 1
            return (records.count - 1, nextKey)
        }
        let inner: Disposable
        if isHot {
            lock.withLock { observers[key] = AnyObserver(observer) }
            inner = Disposables.create { [weak self] in
                guard let self else { return }
                _ = lock.withLock { observers.removeValue(forKey: key) }
            }
        } else {
            let start = scheduler.clock
            inner = CompositeDisposable(disposables: recordedEvents.map { recorded in
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

    /// The classic operator test, as RxTest's: makes the observable at `created`, subscribes at `subscribed`,
    /// disposes at `disposed`, then runs everything scheduled (`start()`) and returns what was recorded.
    public func start<Source: ObservableConvertibleType>(created: TestTime, subscribed: TestTime, disposed: TestTime,
                                                         create: @escaping () -> Source) -> TestableObserver<Source.Element> {
        let observer = createObserver(Source.Element.self)
        var source: Observable<Source.Element>?
        var subscription: Disposable?
        scheduleAt(created) { source = create().asObservable() }
        scheduleAt(subscribed) { subscription = source?.subscribe(observer) }
        scheduleAt(disposed) {
            subscription?.dispose()
            subscription = nil
        }
        start()
        return observer
    }

    /// `start(created:subscribed:disposed:create:)` at the default times: made at 100, subscribed at 200.
    public func start<Source: ObservableConvertibleType>(disposed: TestTime, create: @escaping () -> Source) -> TestableObserver<Source.Element> {
        start(created: Defaults.created, subscribed: Defaults.subscribed, disposed: disposed, create: create)
    }

    /// `start(created:subscribed:disposed:create:)` at the default times: made at 100, subscribed at 200,
    /// disposed at 1000.
    public func start<Source: ObservableConvertibleType>(_ create: @escaping () -> Source) -> TestableObserver<Source.Element> {
        start(created: Defaults.created, subscribed: Defaults.subscribed, disposed: Defaults.disposed, create: create)
    }
}
