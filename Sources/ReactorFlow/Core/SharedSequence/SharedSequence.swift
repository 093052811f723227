/// A stream for the UI: it never fails, delivers on its strategy's scheduler (the main one), and shares one
/// subscription among its subscribers. `Driver` replays the latest element to a new subscriber, `Signal` does not.
/// Each operator on it is the `Observable` operator of the same name, shared again.
///
/// ```swift
/// let isLoading: Driver<Bool> = reactor.state.map(\.isLoading).asDriver(onErrorJustReturn: false)
/// isLoading.drive(onNext: { spinner.isHidden = !$0 }).disposed(by: disposeBag)
/// ```
public struct SharedSequence<SharingStrategy: SharingStrategyProtocol, Element>: SharedSequenceConvertibleType {
    @usableFromInline let source: Observable<Element>

    /// Shares `source` by the strategy's rule; `source` must deliver on the strategy's scheduler and never fail.
    @usableFromInline init(_ source: Observable<Element>) {
        self.source = SharingStrategy.share(source)
    }

    /// The stream behind it, to use any `Observable` operator.
    public func asObservable() -> Observable<Element> { source }

    /// Itself.
    public func asSharedSequence() -> SharedSequence<SharingStrategy, Element> { self }
}

/// How a `SharedSequence` delivers and shares.
public protocol SharingStrategyProtocol {
    /// Where elements are delivered: `SharingScheduler.make()`, the main scheduler unless a test mocks it.
    static var scheduler: SchedulerType { get }
    /// Shares `source` among subscribers.
    static func share<Element>(_ source: Observable<Element>) -> Observable<Element>
}

/// A type that can be seen as a `SharedSequence` (`Driver`, `Signal`).
public protocol SharedSequenceConvertibleType<Element>: ObservableConvertibleType {
    /// `DriverSharingStrategy` or `SignalSharingStrategy`.
    associatedtype SharingStrategy: SharingStrategyProtocol
    /// This value as a `SharedSequence`.
    func asSharedSequence() -> SharedSequence<SharingStrategy, Element>
}

/// `Driver`'s rules: delivered on the main scheduler, shared, the latest element replayed.
public struct DriverSharingStrategy: SharingStrategyProtocol {
    /// `SharingScheduler.make()`.
    public static var scheduler: SchedulerType { SharingScheduler.make() }
    /// `share(replay: 1, scope: .whileConnected)`.
    public static func share<Element>(_ source: Observable<Element>) -> Observable<Element> {
        source.share(replay: 1, scope: .whileConnected)
    }
}

/// `Signal`'s rules: delivered on the main scheduler, shared, nothing replayed.
public struct SignalSharingStrategy: SharingStrategyProtocol {
    /// `SharingScheduler.make()`.
    public static var scheduler: SchedulerType { SharingScheduler.make() }
    /// `share(scope: .whileConnected)`.
    public static func share<Element>(_ source: Observable<Element>) -> Observable<Element> {
        source.share(scope: .whileConnected)
    }
}

/// A stream of state for a view: never fails, delivers on the main scheduler, replays its latest element.
public typealias Driver<Element> = SharedSequence<DriverSharingStrategy, Element>
/// A stream of events for a view: never fails, delivers on the main scheduler, replays nothing.
public typealias Signal<Element> = SharedSequence<SignalSharingStrategy, Element>

/// The scheduler `Driver` and `Signal` deliver on: the main scheduler, or another one while a test mocks it.
///
/// ```swift
/// SharingScheduler.mock(scheduler: testScheduler) {
///     let texts = scheduler.record(viewModel.title)   // a Driver, now delivered in virtual time
///     scheduler.advance(to: 10)
/// }
/// ```
public enum SharingScheduler {
    private static let factory = LockedValue<() -> SchedulerType>({ MainScheduler() })

    /// The scheduler to deliver on now: a new `MainScheduler()` each time, as in RxCocoa, unless a test mocks it.
    public static func make() -> SchedulerType {
        factory.withLock { $0 }()
    }

    /// Runs `action` with every `Driver` and `Signal` made meanwhile delivering on `scheduler`.
    public static func mock(scheduler: SchedulerType, action: () throws -> Void) rethrows {
        try mock(makeScheduler: { scheduler }, action: action)
    }

    /// Runs `action` with every `Driver` and `Signal` made meanwhile delivering on what `makeScheduler` returns.
    public static func mock(makeScheduler: @escaping () -> SchedulerType, action: () throws -> Void) rethrows {
        let previous = factory.withLock { current -> () -> SchedulerType in
            defer { current = makeScheduler }
            return current
        }
        defer { factory.withLock { $0 = previous } }
        try action()
    }
}

extension SharedSequence {
    /// Sends `element` (on the strategy's scheduler), then completes.
    public static func just(_ element: Element) -> SharedSequence<SharingStrategy, Element> {
        SharedSequence(Observable.just(element).subscribe(on: SharingStrategy.scheduler))
    }

    /// Completes (on the strategy's scheduler).
    public static func empty() -> SharedSequence<SharingStrategy, Element> {
        SharedSequence(Observable.empty().subscribe(on: SharingStrategy.scheduler))
    }

    /// Never sends anything.
    public static func never() -> SharedSequence<SharingStrategy, Element> {
        SharedSequence(Observable.never())
    }

    /// Sends `elements`, each in an action of its own on the strategy's scheduler, then completes (in one more).
    public static func of(_ elements: Element...) -> SharedSequence<SharingStrategy, Element> {
        from(elements)
    }

    /// Sends the elements of `array`, each in an action of its own on the strategy's scheduler, then completes (in
    /// one more), as RxCocoa does.
    public static func from(_ array: [Element]) -> SharedSequence<SharingStrategy, Element> {
        SharedSequence(Observable.from(array, scheduler: SharingStrategy.scheduler))
    }

    /// Sends the elements of `sequence`, each in an action of its own on the strategy's scheduler, then completes.
    public static func from<S: Sequence>(_ sequence: S) -> SharedSequence<SharingStrategy, Element> where S.Element == Element {
        SharedSequence(Observable.from(sequence, scheduler: SharingStrategy.scheduler))
    }

    /// Sends `optional`'s value, if any, then completes, each in an action of its own on the strategy's scheduler.
    public static func from(optional: Element?) -> SharedSequence<SharingStrategy, Element> {
        SharedSequence(Observable.from(optional: optional, scheduler: SharingStrategy.scheduler))
    }

    /// Makes a fresh sequence for each subscription.
    public static func deferred(_ factory: @escaping () -> SharedSequence<SharingStrategy, Element>) -> SharedSequence<SharingStrategy, Element> {
        SharedSequence(Observable.deferred { factory().source })
    }
}

extension SharedSequence {
    /// The sequence as an `Infallible`: it never fails. Its deliveries stay on the sharing scheduler.
    public func asInfallible() -> Infallible<Element> { Infallible(raw: source) }
}
