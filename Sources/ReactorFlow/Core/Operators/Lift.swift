extension ObservableType {
    /// Builds a single-source operator from what it does with one element: `step`, copied for each subscription,
    /// so each starts from the same state. Stop events pass through unchanged; the step may end the stream itself
    /// by sending one to its output (`take`, a throwing `map`).
    ///
    /// Operators built this way fuse (see `LiftObservable`): `map { … }.filter { … }.subscribe(…)` is one
    /// subscription to the source whose handlers call each other, with one `Sink` at the end. A subscription's
    /// handlers share one `StepRunner` and call the step directly: one for events and, when the operator is first in
    /// a chain over a subject, one for elements alone, which saves a copy of each element (see
    /// `SubjectCore.deliverKeepingLock(element:sequence:to:eventsOutOfLine:)`).
    @inlinable @inline(__always)
    func lift<Step: OperatorStep>(_ step: Step) -> Observable<Step.Output> where Step.Input == Element {
        asObservable().lifted(ChainHeadMaker { output, wantsElements in
            let runner = StepRunner(step, output: output)
            return ChainHead(events: { runner.on($0) }, elements: wantsElements ? ElementHandler { runner.receive($0) } : nil)
        })
    }
}

/// What a fused single-source operator does with each element (see `lift(_:)` with a step).
///
/// A step is called by one thread at a time (A2), so its state is plain stored properties: no lock, and none of
/// the runtime's exclusivity checks a captured `var` would cost per element.
@usableFromInline
protocol OperatorStep {
    associatedtype Input
    associatedtype Output
    /// Called with each element of the source, in order, never concurrently with itself; sends its elements with
    /// `runner.sendNext` and an end with `runner.output`. A step that calls the user's code reads the runner's fields
    /// only afterwards, so that they are not kept in registers across that call (a `map` binding's handler then
    /// saves and restores fewer of them).
    mutating func receive(_ element: Input, of runner: StepRunner<Self>)
}

/// One subscription's step and where its output goes: the one object that subscription's handlers capture.
@usableFromInline
final class StepRunner<Step: OperatorStep> {
    @usableFromInline @exclusivity(unchecked) var step: Step
    @usableFromInline let output: OperatorOutput<Step.Output>
    /// Where `sendNext` sends an element: the next operator's element handler, or one that calls what `output`
    /// holds, the chain's end or the sink (see `OperatorOutput.elementHandler`). Resolved once per subscription, so
    /// that an element inside a chain reaches the next operator without a switch over `output` (in `pulse`, about 10
    /// instructions per binding).
    @usableFromInline let next: ElementHandler<Step.Output>

    @inlinable @inline(__always)
    init(_ step: Step, output: OperatorOutput<Step.Output>) {
        self.step = step
        self.output = output
        next = output.elementHandler()
    }

    /// `output.onNext(element)`, through `next`.
    @inlinable @inline(__always)
    func sendNext(_ element: Step.Output) {
        ElementHandler.send(element, to: next)
    }

    @inlinable @inline(__always)
    func receive(_ element: Step.Input) {
        step.receive(element, of: self)
    }

    @inlinable @inline(__always)
    func on(_ event: Event<Step.Input>) {
        switch event {
        case .next(let element): step.receive(element, of: self)
        case .error(let error): output.endUnspecialized(with: error)
        case .completed: output.endUnspecialized(with: nil)
        }
    }
}

/// The handlers the first operator of a fused chain makes for one subscription: one for events, and possibly one
/// for elements alone, which a subject calls in place of the first with each element.
@usableFromInline
struct ChainHead<Source> {
    @usableFromInline let events: (Event<Source>) -> Void
    @usableFromInline let elements: ElementHandler<Source>?

    @inlinable @inline(__always)
    init(events: @escaping (Event<Source>) -> Void, elements: ElementHandler<Source>?) {
        self.events = events
        self.elements = elements
    }
}

/// How a fused chain makes its first operator's handlers (see `ChainHead`), given the chain's output and whether
/// an element handler is wanted.
@usableFromInline
struct ChainHeadMaker<Source, Element> {
    @usableFromInline let makeHead: (OperatorOutput<Element>, _ wantsElements: Bool) -> ChainHead<Source>

    @inlinable @inline(__always)
    init(_ makeHead: @escaping (OperatorOutput<Element>, _ wantsElements: Bool) -> ChainHead<Source>) {
        self.makeHead = makeHead
    }

    @inlinable
    func make(_ output: OperatorOutput<Element>, wantsElements: Bool) -> ChainHead<Source> {
        makeHead(output, wantsElements)
    }

    /// The same first operator, sending to the operator `next` makes: its elements to that one's element handler,
    /// which spares wrapping each in an event and taking it out again, the rest to its event handler.
    ///
    /// Compiled once: it runs once per subscription and only hands handlers on, made by each operator in code
    /// specialised for it. Without `specialize.generic.never`, cross-module optimisation would copy it into the app.
    @usableFromInline @inline(never) @_semantics("optimize.sil.specialize.generic.never")
    func appending<Result>(_ next: ChainHeadMaker<Element, Result>) -> ChainHeadMaker<Source, Result> {
        ChainHeadMaker<Source, Result> { output, wantsElements in
            let nextHead = next.make(output, wantsElements: true)
            // Every maker makes the element handler it is asked for (`lift`, `pulse(_:)`); one made here from the
            // event handler would run code compiled once, generic, for each element.
            let events = nextHead.events
            let elements = nextHead.elements ?? ElementHandler { events(.next($0)) }
            return makeHead(.operator(elements: elements, events: events), wantsElements)
        }
    }
}

/// Where a single-source operator's handler sends its events: the handler of the next operator fused with it, or
/// the subscription's `Sink`, which enforces the event grammar and disposes the source when a terminal event
/// reaches it, or, for a user's subscription over a subject, the `ChainEnd` that does so in its place.
///
/// Fused handlers need no grammar of their own: a terminal event from any of them travels down to the sink, which
/// disposes the source's subscription before returning, so the source sends nothing more (its events are
/// serialized, A2). An event already on its way on another thread when the user disposes may still run the fused
/// handlers; the user's observer, behind its boundary sink, does not receive it (A3).
@usableFromInline
enum OperatorOutput<Element>: ObserverType {
    case sink(Sink<Element>)
    /// The next operator of the chain: elements go to its element handler, everything else to its event handler.
    case `operator`(elements: ElementHandler<Element>, events: (Event<Element>) -> Void)
    /// A case of its own rather than a closure around it: the closure would be formed where the subscription is made,
    /// in code that is not compiled for the element type, and every event would run that generic code.
    case end(ChainEnd<Element>)

    @inlinable
    func on(_ event: Event<Element>) {
        switch self {
        case .sink(let sink): sink.on(event)
        case .operator(_, let handler): handler(event)
        case .end(let end): end.on(event)
        }
    }

    /// `on(.next(element))`, without wrapping `element` in an event where the receiver takes elements as they are.
    @inlinable
    func onNext(_ element: Element) {
        switch self {
        case .operator(let elements, _): elements.receive(element)
        case .end(let end): end.receive(element)
        case .sink(let sink): sink.on(.next(element))
        }
    }

    /// `onNext` as one handler: the next operator's element handler itself, or one that calls the chain's end or the
    /// sink. Made once per subscription, and specialised for the element type alone (not inlined into the operator
    /// that asks), so that reactor types whose bindings output the same type share it.
    @inlinable @inline(never)
    func elementHandler() -> ElementHandler<Element> {
        switch self {
        case .operator(let elements, _): return elements
        case .end(let end): return ElementHandler { end.receive($0) }
        case .sink(let sink): return ElementHandler { sink.on(.next($0)) }
        }
    }
}

/// The observable a single-source operator returns: its source and the maker of its first operator's handlers.
///
/// Lifting it again composes the two makers over the same source instead of subscribing one operator to the other,
/// so a chain of such operators costs one subscription and one sink, not one of each per operator; and a
/// subscriber's boundary sink serves as that sink.
@usableFromInline
final class LiftObservable<Source, Element>: Observable<Element> {
    @usableFromInline let source: Observable<Source>
    @usableFromInline let head: ChainHeadMaker<Source, Element>

    @inlinable
    init(source: Observable<Source>, head: ChainHeadMaker<Source, Element>) {
        self.source = source
        self.head = head
        super.init()
    }

    @usableFromInline
    override func lifted<Result>(_ next: ChainHeadMaker<Element, Result>) -> Observable<Result> {
        LiftObservable<Source, Result>(source: source, head: head.appending(next))
    }

    @usableFromInline
    override func run(_ observer: AnyObserver<Element>) -> Disposable {
        Sink.running(observer) { sink in subscribeDelivering(into: sink, observing: { AnyObserver(sink) }) }
    }

    /// Over a subject, the first operator also takes the subject's elements as they are, as at the user's end
    /// (`subscribeOverSubject`): no event is made per element, which also spares a subject whose delivery is compiled
    /// once (a reactor's action subject) making one in generic code.
    @usableFromInline
    override func subscribeDelivering(into sink: Sink<Element>, observing _: () -> AnyObserver<Element>) -> Disposable {
        let core = source.subjectCore
        let handlers = head.make(.sink(sink), wantsElements: core != nil)
        let observer = AnyObserver(lifetime: sink, eventHandler: handlers.events)
        guard let core else { return source.run(observer) }
        return core.subscribe(observer, elementHandler: handlers.elements)
    }

    /// Over a subject, the user's subscription is the subject's own, as when subscribing to the subject directly:
    /// it serializes deliveries and makes `dispose()` wait for one in progress (A3), so the chain needs no sink,
    /// only a `ChainEnd` for what a sink would still do. Per event and subscriber this saves the sink's two lock
    /// round trips (of three).
    @usableFromInline
    override func subscribeOverSubject(_ observer: AnyObserver<Element>, onDispose: (() -> Void)?,
                                       onNext: ((Element) -> Void)?) -> Disposable? {
        guard let core = source.subjectCore else { return nil }
        let end = ChainEnd(observer.handler, elements: onNext, lock: core.lock)
        let handlers = head.make(.end(end), wantsElements: true)
        let subscription = core.subscribe(AnyObserver(eventHandler: handlers.events),
                                          waitsForDelivery: true, onDispose: onDispose, elementHandler: handlers.elements)
        end.attach(subscription)
        return subscription
    }
}

/// The user's end of a chain of single-source operators subscribed straight to a subject
/// (`LiftObservable.subscribeOverSubject`). A terminal event from the subject ends its subscription by itself;
/// one that an operator produced (a `map` that throws, a `take` that is done) does not, so this ends it, and drops
/// whatever the chain might still send after it (A1).
@usableFromInline
final class ChainEnd<Element>: @unchecked Sendable { // `subscription` and `ended` are written under `lock` (the subject's); `ended` is read by deliveries, which the subscription serializes after any write
    /// A constant, released with this end when the subscription lets go of the chain (after its lock, Sink point 3).
    @usableFromInline let handler: AnyObserver<Element>.EventHandler
    /// The user's `onNext`, which does with an element what `handler` does: called without wrapping the element in
    /// an event for `handler` to take it out again. A constant, like `handler`, in an object of its own so that
    /// calling it costs no reference counting (see `ElementHandler`).
    @usableFromInline let elements: ElementHandler<Element>?
    @usableFromInline let lock: Lock
    @usableFromInline @exclusivity(unchecked) var ended = false
    @usableFromInline @exclusivity(unchecked) var subscription: Disposable?

    @inlinable
    init(_ handler: @escaping AnyObserver<Element>.EventHandler, elements: ((Element) -> Void)?, lock: Lock) {
        self.handler = handler
        if let elements { self.elements = ElementHandler(elements) } else { self.elements = nil }
        self.lock = lock
    }

    /// `on(.next(element))`.
    @inlinable
    func receive(_ element: Element) {
        guard !ended else { return }
        guard elements != nil else { return handler(.next(element)) }
        // Unretained: this end keeps the handler for as long as a delivery can reach it.
        Unmanaged.passUnretained(elements.unsafelyUnwrapped)._withUnsafeGuaranteedRef { $0.receive(element) }
    }

    @inlinable
    func on(_ event: Event<Element>) {
        guard !ended else { return }
        guard event.isStopEvent else { return handler(event) }
        let subscription = lock.withLock { () -> Disposable? in
            ended = true
            return self.subscription
        }
        handler(event)
        // From inside the subscription's own delivery: it does not wait for itself. Nil if the chain ended while
        // the subject replayed to it, before `attach`, which then disposes it.
        subscription?.dispose()
    }

    /// Called once the subject returned the subscription.
    @inlinable
    func attach(_ subscription: Disposable) {
        let endedAlready = lock.withLock { () -> Bool in
            self.subscription = subscription
            return ended
        }
        if endedAlready { subscription.dispose() }
    }
}

extension OperatorOutput {
    /// Sends `.error(error)`, or `.completed` if `error` is nil: a chain's end, which comes once per subscription,
    /// so compiled once rather than made for each chain's element types.
    @usableFromInline @inline(never) @_semantics("optimize.sil.specialize.generic.never")
    func endUnspecialized(with error: (any Error)?) {
        let event: Event<Element> = if let error { .error(error) } else { .completed }
        // A sink is told that this ends the stream, rather than looking into the event again (see `Sink.deliver`).
        guard case .sink(let sink) = self else { return on(event) }
        sink.deliver(event, isStop: true)
    }
}
