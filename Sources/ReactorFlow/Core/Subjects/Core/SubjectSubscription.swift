/// One observer of a subject: it drops everything after a terminal event or dispose, and serializes deliveries.
///
/// When the user subscribes to a subject directly, this is also the user-facing end of the subscription (no `Sink`
/// in between): it then runs `onDispose` when the subscription ends and, like a boundary `Sink`, makes a
/// `dispose()` from another thread wait for a delivery in progress (rule A3).
@usableFromInline
final class SubjectSubscription<Element>: AnySubjectSubscription, Disposable, @unchecked Sendable { // fields are guarded by `lock`
    @usableFromInline let joinedAt: UInt64
    /// The core's: a lock per subscription would cost a heap block each, and neither side calls the other while
    /// holding it. Stored rather than read through `core`: reading it through `core` cost five reference-count
    /// pairs per delivery.
    @usableFromInline let lock: Lock
    /// The observer's handler alone: its `lifetime` is of no use here, and copying one reference per delivery
    /// instead of two saves a reference-count pair per event (and two words per subscription).
    @usableFromInline @exclusivity(unchecked) var observer: AnyObserver<Element>.EventHandler?
    /// Receives every element in place of `observer` when set, whether it goes out at once
    /// (`SubjectCore.deliverKeepingLock(element:sequence:to:eventsOutOfLine:)`) or waited in `pending` as an event;
    /// set with `observer`, and cleared with it, except while a delivery is in progress: the delivering thread may be
    /// calling it unretained, so it is that thread that lets it go once the call returns
    /// (`releaseElementHandlerIfEndedKeepingLock`). So it is `observer`, not this, that says whether the subscription
    /// is live.
    @usableFromInline @exclusivity(unchecked) var elementHandler: ElementHandler<Element>?
    /// Like `elementHandler`, for a subscriber whose handler is a plain closure (`subscribe(onNext:)`): called through
    /// a retained copy, so it is cleared with `observer`. A subscription has at most one of the two.
    @usableFromInline @exclusivity(unchecked) var elementObserver: ((Element) -> Void)?
    @usableFromInline @exclusivity(unchecked) var pending = FIFO<Event<Element>>()
    // The gate and the two flags are declared together so the flags fill the gate's padding (16 bytes less).
    @usableFromInline @exclusivity(unchecked) var gate = DeliveryGate()
    @usableFromInline @exclusivity(unchecked) var delivering = false
    @usableFromInline let waitsForDelivery: Bool
    /// Boxed: few subscriptions have one (`subscribe(onDisposed:)`), and a box costs one word where an optional
    /// closure costs two.
    @usableFromInline @exclusivity(unchecked) var onDispose: DisposeCallback?
    /// Strong: a subscription and its core refer to each other until the subscription is removed (disposed, ended,
    /// or released when its subject goes away — see `Observable.init(subjectCore:)`). A weak reference would cost
    /// the core a side table (48 bytes) and a weak load per dispose.
    @usableFromInline let core: SubjectCore<Element>

    @inlinable
    init(_ observer: AnyObserver<Element>, onNext: ((Element) -> Void)?, elementHandler: ElementHandler<Element>?,
         joinedAt: UInt64, core: SubjectCore<Element>,
         waitsForDelivery: Bool, onDispose: (() -> Void)?) {
        self.observer = observer.handler
        elementObserver = onNext
        self.elementHandler = elementHandler
        self.joinedAt = joinedAt
        self.core = core
        lock = core.lock
        self.waitsForDelivery = waitsForDelivery
        self.onDispose = onDispose.map(DisposeCallback.init)
        super.init()
    }

    @inlinable
    func deliver(_ event: Event<Element>) {
        lock.lock()
        deliverKeepingLock(event)
        lock.unlock()
    }

    /// Called holding `lock` (the core's); returns holding it. The lock is let go only while the observer runs.
    @inlinable
    func deliverKeepingLock(_ event: Event<Element>) {
        guard !delivering, pending.isEmpty, !event.isStopEvent, let observer else {
            return deliverOrQueueKeepingLock(event)
        }
        // The common case, an element with nothing queued and nobody delivering: deliver directly.
        delivering = true
        deliverThenUnlocked(event, to: observer)
        lock.lock()
        finishDeliveryKeepingLock(ended: false)
    }

    /// `deliverKeepingLock(.next(element))`, compiled once, in a function of its own: the state relay's walk, compiled
    /// once too, calls it for a subscriber without an element handler, so that the event, whose type code compiled once
    /// looks up at run time, is made only for such a subscriber and not on every element
    /// (see `SubjectCore.deliverKeepingLock(element:sequence:to:eventsOutOfLine:)`).
    @usableFromInline @inline(never) @_semantics("optimize.sil.specialize.generic.never")
    func deliverNextUnspecializedKeepingLock(_ element: Element) {
        deliverKeepingLock(.next(element))
    }

    /// `deliverKeepingLock(_:)` for the rest: a terminal event, an event that must wait its turn, or an ended
    /// subscription. Compiled once, unspecialised, since it is rare and large.
    @usableFromInline
    func deliverOrQueueKeepingLock(_ event: Event<Element>) {
        guard let observer else { return }
        if delivering {
            pending.append(event) // the delivering thread takes it next
            return
        }
        delivering = true
        guard pending.isEmpty else {
            pending.append(event) // a replay is waiting: it goes first
            drainKeepingLock(ended: false)
            return
        }
        // Nothing queued and nobody delivering: a terminal event, delivered directly.
        deliverThenUnlocked(event, to: observer)
        lock.lock()
        finishDeliveryKeepingLock(ended: event.isStopEvent)
    }

    /// Called holding `lock` and the delivering role, with a copy of `observer`: calls the subscriber with `event`
    /// outside the lock (ending the subscription first if `event` ends it), and returns without the lock.
    ///
    /// The copies of the subscriber's closures made here die here, after the call and outside the lock: if the
    /// subscriber disposed this subscription, they are the last references (whatever they release may take it).
    @inlinable @inline(__always)
    func deliverThenUnlocked(_ event: Event<Element>, to observer: consuming @escaping AnyObserver<Element>.EventHandler) {
        let endedElementHandler = event.isStopEvent ? endObservers() : nil
        let elements = event.isStopEvent ? nil : elementHandler
        let elementObserver = event.isStopEvent ? nil : elementObserver
        if waitsForDelivery { _ = gate.enter() }
        lock.unlock()
        Self.deliver(event, to: observer, elements: elements, elementObserver: elementObserver)
        _ = consume observer
        _ = consume elements
        _ = consume elementObserver
        _ = consume endedElementHandler
    }

    /// Calls `observer` with `event`, or the subscription's element handler with an element if it has one: the
    /// observer of `subscribe(onNext:)` over a subject handles the end alone (see `Observable.subscribeAtBoundary`).
    @inlinable
    static func deliver(_ event: Event<Element>, to observer: AnyObserver<Element>.EventHandler,
                        elements: ElementHandler<Element>?, elementObserver: ((Element) -> Void)?) {
        guard case .next(let element) = event else { return observer(event) }
        if let elements {
            elements.receive(element)
        } else if let elementObserver {
            elementObserver(element)
        } else {
            observer(event)
        }
    }

    /// Called holding `lock` after a direct delivery returned; gives up the delivering role, draining or waking first
    /// if needed. Always inlined, also into code compiled once (`SubjectCore.walkDeliveringUnspecializedKeepingLock`),
    /// where the optimiser inlines no generic call on its own.
    @inlinable @inline(__always)
    func finishDeliveryKeepingLock(ended: Bool) {
        if pending.isEmpty && !ended && !gate.disposerWaiting && observer != nil {
            // The common case: nothing arrived meanwhile and nobody waits, so there is nothing to drain or wake.
            gate.thread = nil
            delivering = false
            return
        }
        drainKeepingLock(ended: ended)
    }

    /// `deliverKeepingLock(_:)` for `.next(element)`, to the element handler if it can go out now; the event is made
    /// only when it must wait, since making it copies the element.
    ///
    /// An `elementHandler` is called without retaining it: while this thread holds the delivering role, nobody else
    /// lets it go (`dispose()` leaves it to this thread), so the subscription's reference keeps it alive.
    /// `thread` is the current one, which the caller asks for once per element rather than once per subscriber.
    /// `eventsOutOfLine`: see `SubjectCore.deliverKeepingLock(element:sequence:to:eventsOutOfLine:)`.
    @inlinable @inline(__always)
    func deliverKeepingLock(element: Element, thread: DeliveryGate.Thread, eventsOutOfLine: Bool) {
        // Busy, or a replay waits: queued as an event, in order. Not delivering, the handlers are set only while
        // the subscription is live (see `elementHandler`).
        guard !delivering && pending.isEmpty else {
            if eventsOutOfLine { return deliverNextUnspecializedKeepingLock(element) }
            return deliverOrQueueKeepingLock(.next(element))
        }
        if elementHandler != nil {
            let handler = Unmanaged.passUnretained(elementHandler.unsafelyUnwrapped)
            enterDeliveryThenUnlock(thread: thread)
            handler._withUnsafeGuaranteedRef { $0.receive(element) }
        } else if let elementObserver {
            enterDeliveryThenUnlock(thread: thread)
            elementObserver(element)
            // Released outside the lock, as in `deliverKeepingLock(_:)`.
            _ = consume elementObserver
        } else {
            // Not reached from the walk, which calls this only for a subscription with a handler, under the same
            // lock hold; without either handler, the subscription ended and the element is dropped.
            return
        }
        lock.lock()
        finishDeliveryKeepingLock(ended: false)
    }

    /// Called holding `lock`: takes the delivering role (and the gate, for a user-facing end) and lets go of the
    /// lock, so that the caller can call the subscriber. Always inlined, as `finishDeliveryKeepingLock` is.
    @inlinable @inline(__always)
    func enterDeliveryThenUnlock(thread: DeliveryGate.Thread) {
        delivering = true
        if waitsForDelivery { _ = gate.enter(as: thread) }
        lock.unlock()
    }

    /// Called holding `lock` by the delivering thread once a call to the observer returned, before it leaves the
    /// gate: if the subscription was disposed meanwhile, `dispose()` left the element handler to this thread, which
    /// lets it go now, outside the lock (Sink point 3), and before a disposer waiting on the gate returns (A3).
    @usableFromInline
    func releaseElementHandlerIfEndedKeepingLock() {
        guard observer == nil, elementHandler != nil else { return }
        let released = exchange(&elementHandler, with: nil)
        lock.unlock()
        _ = consume released
        lock.lock()
    }

    /// Delivers what the subscriber's replay left queued, unless another thread is already delivering.
    @usableFromInline
    func drain() {
        lock.lock()
        if !delivering {
            delivering = true
            drainKeepingLock(ended: false)
        }
        lock.unlock()
    }

    /// Called holding `lock` and the delivering role: delivers whatever is queued, then gives up the role; returns
    /// holding `lock`.
    @usableFromInline
    func drainKeepingLock(ended: Bool) {
        var ended = ended
        releaseElementHandlerIfEndedKeepingLock()
        var wake = waitsForDelivery && gate.leave()
        // `pending` first: copying the observer costs reference counting, and the queue is usually empty.
        while !pending.isEmpty, let observer, let event = pending.popFirst() {
            if event.isStopEvent { ended = true }
            deliverThenUnlocked(event, to: observer)
            // The queue's was the only reference to the event, which may hold the user's objects: it dies unlocked.
            _ = consume event
            lock.lock()
            releaseElementHandlerIfEndedKeepingLock()
            if waitsForDelivery && gate.leave() { wake = true }
        }
        // Usually only a replay was ever queued: give its storage back rather than keep it for the subscription's life.
        if observer == nil || pending.isEmpty { pending.removeAll() }
        delivering = false
        guard wake || ended else { return }
        // Rare: a disposer on another thread waits for this delivery, or the subscription ended. Neither the wake-up
        // nor `onDispose` may wait for the next subscriber's delivery, so they run now, outside the lock.
        let whenEnded = ended ? onDispose : nil
        if ended { onDispose = nil }
        lock.unlock()
        if wake { WaitRoom.shared.wakeAll() }
        whenEnded?.call()
        lock.lock()
    }

    /// Called holding `lock` by the thread about to deliver a terminal event, which holds a copy of `observer`:
    /// returns the element handlers for that thread to release with it, after the lock.
    @inlinable
    func endObservers() -> (ElementHandler<Element>?, ((Element) -> Void)?) {
        observer = nil
        return (exchange(&elementHandler, with: nil), exchange(&elementObserver, with: nil))
    }

    /// Ends the subscription without an event: its source went away. The subscriber's closures and queued events
    /// are released (after the lock); `onDispose` is kept for the user's `dispose()`, as in RxSwift, where a
    /// subscription outlives its dead subject until it is disposed.
    override func releaseBecauseSourceDied() {
        lock.lock()
        dropObserversThenUnlock()
    }

    @usableFromInline func dispose() {
        lock.lock()
        let whenEnded = onDispose
        onDispose = nil
        // The core's lock is this subscription's own. A plain search rather than `removeAll(where:)`, on the
        // element-type-erased list, so that it needs no generic types looked up at run time.
        if let index = core.subscriptions.firstIndex(where: { $0 === self }) {
            core.retireWalkedListKeepingLock()
            core.subscriptions.remove(at: index)
        }
        dropObserversThenUnlock()
        whenEnded?.call()
        if waitsForDelivery {
            DeliveryGate.waitUntilIdle { lock.withLock { gate.isBusyElsewhere() } }
        }
    }

    /// Called holding `lock`: clears the observers and the queued events, and returns without the lock.
    ///
    /// They are taken out rather than dropped under the lock: they may hold the last references to the user's
    /// objects, whose deinitialisation may take this lock (a view's dispose bag disposing its other subscriptions),
    /// so they are released after it. The element handler is left to a delivery in progress, which may be calling it
    /// unretained (see `elementHandler`). Each is taken into a local of its own, of a type whose layout does not
    /// depend on `Element` (a closure, a reference, an array), rather than into a tuple: this runs unspecialised, where
    /// a tuple of generic types is looked up at run time.
    private func dropObserversThenUnlock() {
        let observer = self.observer
        let elementObserver = self.elementObserver
        let elementHandler = delivering ? nil : self.elementHandler
        // Usually empty; making an empty queue is a generic call here.
        let pending = self.pending.isEmpty ? nil : exchange(&self.pending, with: FIFO())
        self.observer = nil
        self.elementObserver = nil
        if !delivering { self.elementHandler = nil }
        lock.unlock()
        _ = consume observer
        _ = consume elementObserver
        _ = consume elementHandler
        _ = consume pending
    }
}
