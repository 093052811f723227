/// `Observable` under a name that does not clash with Observation's `Observable` in a file that imports both, as in
/// RxSwift.
public typealias RxObservable<Element> = Observable<Element>

/// A stream of events: `next*` then at most one `error` or `completed`.
///
/// Observables are cold: the work of `create`, `just`, `from`, `deferred` and `timer` runs once per subscription.
/// Use `share(replay:)` to share one subscription.
///
/// ```swift
/// let numbers = Observable.of(1, 2, 3).map { $0 * 10 }
/// numbers.subscribe(onNext: { print($0) }) // 10 20 30
/// ```
public class Observable<Element>: ObservableType {
    /// A subject's locked core; nil for every other observable. Stored here rather than reached through a class
    /// override so that subscribing to a subject is inlined where the user subscribes, compiled for the element type.
    @usableFromInline let subjectCore: SubjectCore<Element>?

    @inlinable init() { subjectCore = nil }

    /// A subject's class must release `subjectCore`'s subscriptions in its `deinit`
    /// (`SubjectCore.releaseBecauseOwnerDied`): a subject that goes away lets the subscriptions still open go without
    /// an event, as in RxSwift, since nobody can send to them any more and they and the core refer to each other. Not done
    /// here, so that other observables have no deinitialisation of their own: the compiler can then delete a `just`
    /// made and used up in inlined code (a small `mutate`) instead of allocating and freeing it.
    @usableFromInline init(subjectCore: SubjectCore<Element>) { self.subjectCore = subjectCore }

    /// Which of the observables that the reactor pipeline treats apart this is: a `just`, applied without
    /// subscribing, or a `transform` hook's input (see `TransformReturn`). A class property rather than a cast (`as?`
    /// calls into the runtime, which the optimizer cannot see through): where the observable's class is known (a
    /// `just` made in a small inlined `mutate`, a hook's input returned by a default hook), the compiler knows the
    /// answer without the call, and can then delete a `just` altogether. (An exact-type comparison, as in
    /// `Just.matching`, crashes Swift 6.3.1's optimizer in the mutation stage.)
    @inlinable var kind: ObservableKind { .other }

    /// When the elements a subscription would receive, synchronously and followed by completion, are known without
    /// subscribing (a `just`, a `concat` of `just`s): hands each to `body` in order, with whether it is the last, and
    /// returns true. Otherwise returns false, calling nothing. Lets the reactor's mutation stage apply such a stream
    /// without a subscription.
    ///
    /// A class method, so compiled once for every element type: it hands the elements on by address. Nothing runs
    /// here after `body` was given the last element.
    @usableFromInline
    func forEachKnownElement(_ body: (_ element: Element, _ isLast: Bool) -> Void) -> Bool { false }

    /// Starts a subscription that sends this stream's events to `observer`; dispose the result to end it early.
    @inlinable
    public final func subscribe<Observer: ObserverType>(_ observer: Observer) -> Disposable where Observer.Element == Element {
        subscribeAtBoundary(AnyObserver(observer), onDispose: nil)
    }

    /// Subscribes the user's `observer` (see `Sink`, point 4). A subject's own subscription is the boundary, which
    /// saves a sink per subscriber and two lock round trips per event, and so it is for a chain of single-source
    /// operators over a subject (`subscribeOverSubject`); anything else gets a boundary sink, built here, inlined
    /// where the user subscribes, so that it is compiled for the element type.
    ///
    /// `onNext`, if given, must do with an element what `observer` does: a subject then hands it its elements
    /// without wrapping them in events (see `SubjectCore.deliverKeepingLock(element:sequence:to:eventsOutOfLine:)`).
    @inlinable
    final func subscribeAtBoundary(_ observer: AnyObserver<Element>, onDispose: (() -> Void)?,
                                   onNext: ((Element) -> Void)? = nil) -> Disposable {
        if let subjectCore {
            return subjectCore.subscribe(observer, waitsForDelivery: true, onDispose: onDispose, onNext: onNext)
        }
        if let subscription = subscribeOverSubject(observer, onDispose: onDispose, onNext: onNext) { return subscription }
        return subscribeThroughBoundarySink(observer, onDispose: onDispose)
    }

    /// `subscribeAtBoundary` for a stream that is neither a subject nor a chain of operators over one: a boundary
    /// sink between the stream and `observer`.
    @inlinable
    final func subscribeThroughBoundarySink(_ observer: AnyObserver<Element>, onDispose: (() -> Void)?) -> Disposable {
        Sink.boundary(observer, onDispose: onDispose) { sink in
            // The observer is made here, in code compiled for the element type: made in the class method, its
            // handler would be the generic `Sink.on`, which looks up type metadata on every event.
            subscribeDelivering(into: sink, observing: { AnyObserver(sink) })
        }
    }

    /// `subscribe(onNext:)` with no other handler. Over a subject, `onNext` receives every element (see
    /// `SubjectSubscription.elementObserver`), so the observer is left with the end alone: a function that captures
    /// nothing, and so costs no heap block.
    @inlinable
    final func subscribeAtBoundary(onNext: @escaping (Element) -> Void, onDispose: (() -> Void)?) -> Disposable {
        if let subjectCore {
            return subjectCore.subscribe(AnyObserver(eventHandler: Self.reportUnhandledError), waitsForDelivery: true,
                                         onDispose: onDispose, onNext: onNext)
        }
        let observer = AnyObserver<Element> { event in
            if case .next(let element) = event { onNext(element) } else { Self.reportUnhandledError(event) }
        }
        if let subscription = subscribeOverSubject(observer, onDispose: onDispose, onNext: onNext) { return subscription }
        return subscribeThroughBoundarySink(observer, onDispose: onDispose)
    }

    /// What a subscriber without `onError` does with an error: reports it (see `Diagnostics`).
    @inlinable
    static func reportUnhandledError(_ event: Event<Element>) {
        if case .error(let error) = event { Diagnostics.report(.unhandledError, error: error) }
    }

    /// Subscribes the user's `observer` straight to the subject this observable's operators run over, the
    /// subject's subscription being the boundary; `nil` if it is not such a chain (see `LiftObservable`). `onNext`,
    /// if given, does with an element what `observer` does, and receives the chain's elements in its place.
    @usableFromInline
    func subscribeOverSubject(_ observer: AnyObserver<Element>, onDispose: (() -> Void)?,
                              onNext: ((Element) -> Void)?) -> Disposable? {
        nil
    }

    /// Subscribes so that events go to `sink`, which takes care of the grammar and of disposing what this
    /// returns: runs this observable with the observer `sinkObserver` makes (one that delivers to `sink`). An
    /// operator that would only put a sink of its own in front of `sink` (`LiftObservable`) uses `sink` instead.
    @usableFromInline
    func subscribeDelivering(into sink: Sink<Element>, observing sinkObserver: () -> AnyObserver<Element>) -> Disposable {
        run(sinkObserver())
    }

    /// The observable of a single-source operator over this one (see `ObservableType.lift`); a lifted observable
    /// fuses the two.
    @usableFromInline
    func lifted<Result>(_ head: ChainHeadMaker<Element, Result>) -> Observable<Result> {
        LiftObservable(source: self, head: head)
    }

    /// Subclasses deliver to `observer`; they may assume nothing about it and must obey the event grammar.
    @usableFromInline
    func run(_ observer: AnyObserver<Element>) -> Disposable {
        if let subjectCore { return subjectCore.subscribe(observer) }
        preconditionFailure("Observable.run must be overridden") // unreachable: every subclass is internal
    }

    /// Returns `self`: an `Observable` is already the erased type.
    public final func asObservable() -> Observable<Element> { self }

    /// An observable whose subscriptions run `body` with a `Sink` that enforces the grammar for it.
    @inlinable
    static func make(_ body: @escaping (Sink<Element>) -> Disposable) -> Observable<Element> {
        SinkObservable(body)
    }
}

/// The observables recognised by `Observable.kind`.
@usableFromInline
enum ObservableKind {
    /// A `Just`.
    case just
    /// What a reactor's `transform` hooks receive: an `ActionSubject` (a reactor's `action`, or one made by hand), or
    /// the input of `transform(mutation:)` or `transform(state:)`.
    case transformInput
    /// Anything else.
    case other
}

/// The observable behind `create` and almost every operator: each subscription gets a fresh `Sink`.
///
/// `run` is a class override, compiled once, unspecialised; the closure that makes the sink is created in `init`,
/// which is inlined where the operator is used, so each event through the sink runs specialised code.
@usableFromInline
final class SinkObservable<Element>: Observable<Element> {
    @usableFromInline let subscribeSink: (AnyObserver<Element>) -> Disposable

    @inlinable
    init(_ body: @escaping (Sink<Element>) -> Disposable) {
        subscribeSink = { observer in Sink.running(observer, body) }
        super.init()
    }

    /// For a caller that writes `{ observer in Sink.running(observer) { sink in … } }` itself: one closure context
    /// instead of two, for observables made often and rarely subscribed (a reactor's transform inputs).
    @inlinable
    init(subscribe: @escaping (AnyObserver<Element>) -> Disposable) {
        subscribeSink = subscribe
        super.init()
    }

    @usableFromInline
    override func run(_ observer: AnyObserver<Element>) -> Disposable {
        subscribeSink(observer)
    }
}
