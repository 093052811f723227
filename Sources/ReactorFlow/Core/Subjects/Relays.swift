/// A `PublishSubject` that never ends: it has `accept(_:)` instead of `on(_:)`.
///
/// ```swift
/// let refresh = PublishRelay<Void>()
/// refresh.accept(())
/// ```
public final class PublishRelay<Element>: Observable<Element>, @unchecked Sendable { // state lives in the locked core
    @usableFromInline let core = SubjectCore<Element>(bufferSize: 0, ignoresStopEvents: true)

    /// Creates a relay with no observers.
    public override init() {}

    /// Delivers `element` to the current observers.
    public func accept(_ element: Element) { core.on(.next(element)) }

    override func run(_ observer: AnyObserver<Element>) -> Disposable { core.subscribe(observer) }

    override func subscribeDirectly(_ observer: AnyObserver<Element>, onDispose: (() -> Void)?) -> Disposable? {
        core.subscribe(observer, waitsForDelivery: true, onDispose: onDispose)
    }
}

/// A `BehaviorSubject` that never ends, with a readable `value`.
///
/// ```swift
/// let isOn = BehaviorRelay(value: false)
/// isOn.accept(true)
/// isOn.value // true
/// ```
public final class BehaviorRelay<Element>: Observable<Element>, @unchecked Sendable { // state lives in the locked core
    @usableFromInline let core = SubjectCore<Element>(bufferSize: 1, ignoresStopEvents: true)

    /// Creates a relay holding `value`.
    public init(value: Element) {
        core.on(.next(value))
    }

    /// The latest element.
    public var value: Element {
        core.latest! // the buffer always holds one element: the initial value or a later one
    }

    /// Stores `element` and delivers it to the current observers.
    public func accept(_ element: Element) { core.on(.next(element)) }

    override func run(_ observer: AnyObserver<Element>) -> Disposable { core.subscribe(observer) }

    override func subscribeDirectly(_ observer: AnyObserver<Element>, onDispose: (() -> Void)?) -> Disposable? {
        core.subscribe(observer, waitsForDelivery: true, onDispose: onDispose)
    }
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
