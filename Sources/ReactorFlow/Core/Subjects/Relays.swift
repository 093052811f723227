/// A `PublishSubject` that never ends: it has `accept(_:)` instead of `on(_:)`.
///
/// ```swift
/// let refresh = PublishRelay<Void>()
/// refresh.accept(())
/// ```
public final class PublishRelay<Element>: Observable<Element>, @unchecked Sendable { // state lives in the locked core
    @inlinable var core: SubjectCore<Element> { subjectCore.unsafelyUnwrapped }
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
    @inlinable var core: SubjectCore<Element> { subjectCore.unsafelyUnwrapped }
    deinit { core.releaseBecauseOwnerDied() } // see `Observable.init(subjectCore:)`

    /// Creates a relay holding `value`.
    public init(value: Element) {
        super.init(subjectCore: SubjectCore(bufferSize: 1, ignoresStopEvents: true))
        core.onNext(value)
    }

    /// The latest element.
    public var value: Element {
        core.latest! // the buffer always holds one element: the initial value or a later one
    }

    /// Stores `element` and delivers it to the current observers.
    public func accept(_ element: Element) { core.onNext(element) }

}

extension ObservableType {
    /// Forwards elements to each relay.
    public func bind(to relays: PublishRelay<Element>...) -> Disposable {
        bind(onNext: { element in for relay in relays { relay.accept(element) } })
    }

    /// Forwards elements to each relay.
    public func bind(to relays: BehaviorRelay<Element>...) -> Disposable {
        bind(onNext: { element in for relay in relays { relay.accept(element) } })
    }
}
