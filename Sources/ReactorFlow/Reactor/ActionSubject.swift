/// The reactor's `action`: a subject that accepts elements from any thread and ignores error and completion, so
/// that `someStream.bind(to: reactor.action)` can never end the reactor.
///
/// ```swift
/// reactor.action.onNext(.refresh)
/// refreshControl.events.map { .refresh }.bind(to: reactor.action).disposed(by: disposeBag)
/// ```
public final class ActionSubject<Element>: Observable<Element>, ObserverType, @unchecked Sendable { // state lives in the locked core
    @inlinable @inline(__always) var core: SubjectCore<Element> { subjectCore.unsafelyUnwrapped }
    deinit { core.releaseBecauseOwnerDied() } // see `Observable.init(subjectCore:)`
    /// A reactor's own subject hands every element to its reactor's loop, which runs it directly or delivers it to
    /// the subject's subscribers (see `ReactorLoop.receiveFromSubject`); any other delivers to its subscribers. The
    /// receiver and a function that captures nothing, rather than a closure capturing the loop: no context to
    /// allocate, nothing to retain per element. Not optional, so that passing it on costs no reference counting
    /// either (a shared loop's count, retained per element by every sending thread, was contended).
    @usableFromInline let receiver: AnyObject
    @usableFromInline let receive: Receive
    /// What an action sent to the subject is handed to, with the receiver and the subject's core.
    @usableFromInline typealias Receive = (AnyObject, SubjectCore<Element>, Element) -> Void

    /// Creates a subject with no observers.
    public override init() {
        let core = SubjectCore<Element>(bufferSize: 0, ignoresStopEvents: true)
        receiver = core
        receive = { _, core, element in core.onNext(element) }
        super.init(subjectCore: core)
    }

    /// A reactor's subject, over a core made for it.
    @inlinable
    init(core: SubjectCore<Element>, receiver: AnyObject, receive: @escaping (AnyObject, SubjectCore<Element>, Element) -> Void) {
        self.receiver = receiver
        self.receive = receive
        super.init(subjectCore: core)
    }

    /// `transform(action:)`'s input (see `TransformReturn`).
    @inlinable @inline(__always) override var kind: ObservableKind { .transformInput }

    /// The core a reactor's subject is made over.
    @inlinable
    static func makeCore(lock: Lock) -> SubjectCore<Element> {
        SubjectCore(bufferSize: 0, ignoresStopEvents: true, lock: lock)
    }

    /// Whether anyone is subscribed (the reactor's pipeline, while the reactor lives).
    public var hasObservers: Bool { core.hasObservers }

    /// The subscriptions open now, one per observer, for tests that count them through `@testable import`.
    var observers: [AnyObject] { core.lock.withLock { core.subscriptions } }

    /// Delivers `.next`; `.error` and `.completed` are ignored (documented, rule B7b).
    @inlinable public func on(_ event: Event<Element>) {
        if case .next(let element) = event { receive(receiver, core, element) }
    }

    /// `on(.next(element))`, without wrapping `element` in an event on the way.
    @inlinable public func onNext(_ element: Element) { receive(receiver, core, element) }

    /// Lets every subscriber go without an event; called when the reactor dies.
    func releaseBecauseOwnerDied() { core.releaseBecauseOwnerDied() }

}

/// A relay of state with a settable `value`: the reactor's state stream, and the stub's.
///
/// ```swift
/// reactor.stub.state.value = State(isLoading: true)
/// ```
public final class StateRelay<Element>: Observable<Element>, @unchecked Sendable { // state lives in the locked core
    @inlinable @inline(__always) var core: SubjectCore<Element> { subjectCore.unsafelyUnwrapped }
    deinit { core.releaseBecauseOwnerDied() } // see `Observable.init(subjectCore:)`

    /// Creates a relay holding `value`.
    public init(value: Element) {
        super.init(subjectCore: SubjectCore(bufferSize: 1, ignoresStopEvents: true))
        core.onNext(value)
    }

    /// An empty relay: the reactor's, whose first state may arrive later on its scheduler. `lock` is its pipeline's.
    @inlinable init(lock: Lock) { super.init(subjectCore: SubjectCore(bufferSize: 1, ignoresStopEvents: true, lock: lock)) }

    /// The latest state; setting it delivers the new value to every subscriber.
    public var value: Element {
        get { core.latestReplayed! } // public relays are created with a value, and the buffer always keeps one
        set { core.onNext(newValue) }
    }

    /// The latest state, if one has arrived.
    @inlinable var latestValue: Element? { core.latestReplayed }

    /// Stores `element` and delivers it to every subscriber.
    @inlinable public func accept(_ element: Element) { core.onNext(element) }

    /// `accept` for the reactor's own relay, whose one sender (the reactor's loop, or the serialized stream of
    /// `transform(state:)`) never sends concurrently with itself.
    @inlinable @inline(__always) func acceptFromSoleSender(_ element: Element) { core.publishFromSoleSender(element) }

    /// Lets every subscriber go without an event; called when the reactor dies.
    func releaseBecauseOwnerDied() { core.releaseBecauseOwnerDied() }

}
