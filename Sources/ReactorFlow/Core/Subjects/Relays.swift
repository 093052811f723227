/// A `PublishSubject` that never ends: it has `accept(_:)` instead of `on(_:)`.
///
/// ```swift
/// let refresh = PublishRelay<Void>()
/// refresh.accept(())
/// ```
public final class PublishRelay<Element>: Observable<Element>, @unchecked Sendable { // state lives in the locked core
    @inlinable @inline(__always) var core: SubjectCore<Element> { subjectCore.unsafelyUnwrapped }
    deinit { core.releaseBecauseOwnerDied() } // see `Observable.init(subjectCore:)`

    /// Creates a relay with no observers.
    public override init() { super.init(subjectCore: SubjectCore(bufferSize: 0, ignoresStopEvents: true)) }

    /// Delivers `element` to the current observers.
    public func accept(_ element: Element) { core.onNext(element) }

}

/// A `BehaviorSubject` that never ends, with a readable `value`.
///
/// ```swift
/// let isOn = BehaviorRelay(value: false)
/// isOn.accept(true)
/// isOn.value // true
/// ```
public final class BehaviorRelay<Element>: Observable<Element>, @unchecked Sendable { // state lives in the locked core
    @inlinable @inline(__always) var core: SubjectCore<Element> { subjectCore.unsafelyUnwrapped }
    deinit { core.releaseBecauseOwnerDied() } // see `Observable.init(subjectCore:)`

    /// Creates a relay holding `value`.
    public init(value: Element) {
        super.init(subjectCore: SubjectCore(bufferSize: 1, ignoresStopEvents: true))
        core.onNext(value)
    }

    /// The latest element.
    public var value: Element {
        core.latestReplayed! // the buffer always holds one element: the initial value or a later one
    }

    /// Stores `element` and delivers it to the current observers.
    public func accept(_ element: Element) { core.onNext(element) }

}

/// A `ReplaySubject` that never ends: it replays the latest `bufferSize` elements to each new observer.
///
/// ```swift
/// let recentSearches = ReplayRelay<String>.create(bufferSize: 5)
/// recentSearches.accept("swift")
/// ```
public final class ReplayRelay<Element>: Observable<Element>, @unchecked Sendable { // state lives in the locked core
    @inlinable @inline(__always) var core: SubjectCore<Element> { subjectCore.unsafelyUnwrapped }
    deinit { core.releaseBecauseOwnerDied() } // see `Observable.init(subjectCore:)`

    private init(bufferSize: Int) {
        super.init(subjectCore: SubjectCore(bufferSize: max(0, bufferSize), ignoresStopEvents: true))
    }

    /// A relay that replays the latest `bufferSize` elements (none for a size of zero or less).
    public static func create(bufferSize: Int) -> ReplayRelay<Element> { ReplayRelay(bufferSize: bufferSize) }

    /// A relay that replays every element (RxRelay's name, which differs from `ReplaySubject.createUnbounded()`).
    public static func createUnbound() -> ReplayRelay<Element> { ReplayRelay(bufferSize: .max) }

    /// Stores `element` in the buffer and delivers it to the current observers.
    public func accept(_ element: Element) { core.onNext(element) }
}

extension PublishRelay {
    /// The relay as an `Infallible`: it never fails.
    public func asInfallible() -> Infallible<Element> { Infallible(raw: asObservable()) }
}

extension BehaviorRelay {
    /// The relay as an `Infallible`: it never fails.
    public func asInfallible() -> Infallible<Element> { Infallible(raw: asObservable()) }
}

extension ReplayRelay {
    /// The relay as an `Infallible`: it never fails.
    public func asInfallible() -> Infallible<Element> { Infallible(raw: asObservable()) }
}

/// A relay, as `bind(to:)` sees it: something that accepts elements.
protocol AcceptingRelay<Element> {
    associatedtype Element
    func accept(_ element: Element)
}

extension PublishRelay: AcceptingRelay {}
extension BehaviorRelay: AcceptingRelay {}
extension ReplayRelay: AcceptingRelay {}

extension ObservableType {
    /// Has each of `relays` accept every element; an error is reported through `Diagnostics`, and the end ignored.
    func bind<Relay: AcceptingRelay>(accepting relays: [Relay]) -> Disposable where Relay.Element == Element {
        bind(onNext: { element in for relay in relays { relay.accept(element) } })
    }

    /// Has each of `relays` accept every element, as an optional.
    func bind<Relay: AcceptingRelay>(accepting relays: [Relay]) -> Disposable where Relay.Element == Element? {
        bind(onNext: { element in for relay in relays { relay.accept(element) } })
    }

    /// Forwards elements to each relay.
    public func bind(to relays: PublishRelay<Element>...) -> Disposable { bind(accepting: relays) }
    /// Forwards elements to each relay.
    public func bind(to relays: BehaviorRelay<Element>...) -> Disposable { bind(accepting: relays) }
    /// Forwards elements to each relay.
    public func bind(to relays: ReplayRelay<Element>...) -> Disposable { bind(accepting: relays) }
    /// Forwards elements, as optionals, to each relay.
    public func bind(to relays: PublishRelay<Element?>...) -> Disposable { bind(accepting: relays) }
    /// Forwards elements, as optionals, to each relay.
    public func bind(to relays: BehaviorRelay<Element?>...) -> Disposable { bind(accepting: relays) }
    /// Forwards elements, as optionals, to each relay.
    public func bind(to relays: ReplayRelay<Element?>...) -> Disposable { bind(accepting: relays) }
}
