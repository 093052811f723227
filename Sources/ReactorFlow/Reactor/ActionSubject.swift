/// The reactor's `action`: a subject that accepts elements from any thread and ignores error and completion, so
/// that `someStream.bind(to: reactor.action)` can never end the reactor.
///
/// ```swift
/// reactor.action.onNext(.refresh)
/// refreshControl.events.map { .refresh }.bind(to: reactor.action).disposed(by: disposeBag)
/// ```
public final class ActionSubject<Element>: Observable<Element>, ObserverType, @unchecked Sendable { // state lives in the locked core
    @inlinable var core: SubjectCore<Element> { subjectCore.unsafelyUnwrapped }

    /// Creates a subject with no observers.
    public override init() { super.init(subjectCore: SubjectCore(bufferSize: 0, ignoresStopEvents: true)) }

    /// Whether anyone is subscribed (the reactor's pipeline, while the reactor lives).
    public var hasObservers: Bool { core.hasObservers }

    /// Delivers `.next`; `.error` and `.completed` are ignored (documented, rule B7b).
    @inlinable public func on(_ event: Event<Element>) { core.on(event) }

    /// Completes every subscriber; called when the reactor dies.
    func completeBecauseOwnerDied() { core.completeBecauseOwnerDied() }

}

/// A relay of state with a settable `value`: the reactor's state stream, and the stub's.
///
/// ```swift
/// reactor.stub.state.value = State(isLoading: true)
/// ```
public final class StateRelay<Element>: Observable<Element>, @unchecked Sendable { // state lives in the locked core
    @inlinable var core: SubjectCore<Element> { subjectCore.unsafelyUnwrapped }

    /// Creates a relay holding `value`.
    public init(value: Element) {
        super.init(subjectCore: SubjectCore(bufferSize: 1, ignoresStopEvents: true))
        core.on(.next(value))
    }

    /// An empty relay: the reactor's, whose first state may arrive later on its scheduler.
    @usableFromInline override init() { super.init(subjectCore: SubjectCore(bufferSize: 1, ignoresStopEvents: true)) }

    /// The latest state; setting it delivers the new value to every subscriber.
    public var value: Element {
        get { core.latest! } // public relays are created with a value, and the buffer always keeps one
        set { core.on(.next(newValue)) }
    }

    /// The latest state, if one has arrived.
    @inlinable var latestValue: Element? { core.latest }

    /// Stores `element` and delivers it to every subscriber.
    @inlinable public func accept(_ element: Element) { core.on(.next(element)) }

    /// Completes every subscriber; called when the reactor dies.
    func completeBecauseOwnerDied() { core.completeBecauseOwnerDied() }

}
