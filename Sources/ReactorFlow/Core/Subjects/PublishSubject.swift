/// Delivers each event to the observers subscribed at that moment; replays nothing.
///
/// After it ends, a new subscriber gets the terminal event at once.
///
/// ```swift
/// let taps = PublishSubject<Void>()
/// taps.subscribe(onNext: { print("tap") }).disposed(by: bag)
/// taps.onNext(())
/// ```
public final class PublishSubject<Element>: Observable<Element>, ObserverType, @unchecked Sendable { // state lives in the locked core
    @inlinable @inline(__always) var core: SubjectCore<Element> { subjectCore.unsafelyUnwrapped }
    deinit { core.releaseBecauseOwnerDied() } // see `Observable.init(subjectCore:)`

    /// Creates a subject with no observers.
    public override init() { super.init(subjectCore: SubjectCore(bufferSize: 0)) }

    /// Whether anyone is subscribed.
    public var hasObservers: Bool { core.hasObservers }

    /// Delivers `event` to every current subscriber; after `.error` or `.completed` further events are ignored.
    @inlinable public func on(_ event: Event<Element>) { core.on(event) }

    /// `on(.next(element))`, without wrapping `element` in an event on the way.
    @inlinable public func onNext(_ element: Element) { core.onNext(element) }

}

/// Replays its latest element (initially `value`) to each new subscriber, then delivers new events.
///
/// ```swift
/// let name = BehaviorSubject(value: "")
/// name.onNext("Ann")
/// try name.value() // "Ann"
/// ```
public final class BehaviorSubject<Element>: Observable<Element>, ObserverType, @unchecked Sendable { // state lives in the locked core
    @inlinable @inline(__always) var core: SubjectCore<Element> { subjectCore.unsafelyUnwrapped }
    deinit { core.releaseBecauseOwnerDied() } // see `Observable.init(subjectCore:)`

    /// Creates a subject holding `value`.
    public init(value: Element) {
        super.init(subjectCore: SubjectCore(bufferSize: 1, replaysAfterStop: false))
        core.onNext(value)
    }

    /// Whether anyone is subscribed.
    public var hasObservers: Bool { core.hasObservers }

    /// The latest element; throws the subject's error if it failed.
    public func value() throws -> Element {
        if case .error(let error) = core.stoppedWith { throw error }
        // The buffer always holds one element: the initial value or a later one.
        return core.latestReplayed!
    }

    /// Stores an element as the current value and delivers `event` to every subscriber; after a terminal event further events are ignored.
    @inlinable public func on(_ event: Event<Element>) { core.on(event) }

    /// `on(.next(element))`, without wrapping `element` in an event on the way.
    @inlinable public func onNext(_ element: Element) { core.onNext(element) }

}

/// Replays up to `bufferSize` latest elements to each new subscriber (and the terminal event, once ended).
///
/// ```swift
/// let log = ReplaySubject<String>.create(bufferSize: 2)
/// ```
public final class ReplaySubject<Element>: Observable<Element>, ObserverType, @unchecked Sendable { // state lives in the locked core
    @inlinable @inline(__always) var core: SubjectCore<Element> { subjectCore.unsafelyUnwrapped }
    deinit { core.releaseBecauseOwnerDied() } // see `Observable.init(subjectCore:)`

    private init(bufferSize: Int) {
        super.init(subjectCore: SubjectCore(bufferSize: max(0, bufferSize)))
    }

    /// A subject that replays the latest `bufferSize` elements.
    public static func create(bufferSize: Int) -> ReplaySubject<Element> { ReplaySubject(bufferSize: bufferSize) }

    /// A subject that replays every element.
    public static func createUnbounded() -> ReplaySubject<Element> { ReplaySubject(bufferSize: .max) }

    /// ``createUnbounded()`` under the name ``ReplayRelay`` uses.
    @available(*, deprecated, renamed: "createUnbounded()")
    public static func createUnbound() -> ReplaySubject<Element> { createUnbounded() }

    /// Whether anyone is subscribed.
    public var hasObservers: Bool { core.hasObservers }

    /// Adds an element to the replay buffer and delivers `event` to every subscriber; after a terminal event further events are ignored.
    @inlinable public func on(_ event: Event<Element>) { core.on(event) }

    /// `on(.next(element))`, without wrapping `element` in an event on the way.
    @inlinable public func onNext(_ element: Element) { core.onNext(element) }

}
