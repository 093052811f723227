/// The machinery shared by every subject and relay.
///
/// - Events sent from any thread, or from inside an observer (reentrantly), are queued and delivered by one thread
///   at a time, in the order they were sent, to every observer: an observer never sees a later event first.
/// - The replay buffer is updated when an event is sent, so a subscriber that joins while events are still queued
///   gets them through its replay and is skipped when they are delivered (each subscription remembers the sequence
///   number it joined at).
/// - Each subscription serializes its own deliveries, so a replay on the subscribing thread and a delivery from the
///   draining thread can never overlap.
/// - A subscription may have an element handler beside its observer (`subscribe(onNext:)`, a chain that starts
///   with `map`): elements that can go out at once go to it as they are, saving the copy that taking them out of an
///   event costs; anything that must wait is queued as an event for the observer, so both keep one order. The
///   subject's own senders (`onNext`, `accept`) hand the element in as it is too (`onNext(_:)`).
@usableFromInline
final class SubjectCore<Element>: @unchecked Sendable { // every field is guarded by `lock`
    @usableFromInline let lock: Lock
    @usableFromInline @exclusivity(unchecked) var subscriptions: [SubjectSubscription<Element>] = []
    /// What a subject seldom needs, made on first need so that a subject does not carry it (see `Overflow`).
    @usableFromInline @exclusivity(unchecked) var overflow: Overflow?
    @usableFromInline @exclusivity(unchecked) var lastSequence: UInt64 = 0
    // The flags, the options and the replay capacity are declared together so that they share one word.
    @usableFromInline @exclusivity(unchecked) var draining = false
    @usableFromInline @exclusivity(unchecked) var stopped = false
    /// Whether a delivery is walking `subscriptions` without a reference of its own (see
    /// `walkDeliveringKeepingLock`): until it is done, the list it walks must not change in place or die (see
    /// `retireWalkedListKeepingLock`).
    @usableFromInline @exclusivity(unchecked) var walking = false
    @usableFromInline let options: SubjectOptions
    @usableFromInline let replayCapacity: Int32
    /// The error that ended the subject, if it ended with one: one word, where an `Event<Element>?` would be as
    /// large as an element.
    @usableFromInline @exclusivity(unchecked) var stopError: (any Error)?
    @usableFromInline @exclusivity(unchecked) var buffer: ReplayBuffer<Element>

    /// - Parameters:
    ///   - bufferSize: how many latest elements a new subscriber receives (`Int.max` for all).
    ///   - ignoresStopEvents: relays never end, so stop events sent to them are dropped.
    ///   - replaysAfterStop: whether a subscriber arriving after the end still gets the buffer before the terminal
    ///     event (replay subjects do; behavior subjects, as in RxSwift, send only the terminal event).
    ///   - lock: may be shared with other objects that, like this one, never call out while holding it (a reactor's
    ///     subjects share their pipeline's lock, which saves a heap block each).
    @inlinable
    init(bufferSize: Int, ignoresStopEvents: Bool = false, replaysAfterStop: Bool = true, lock: Lock = Lock.make()) {
        self.lock = lock
        replayCapacity = Int32(clamping: bufferSize)
        buffer = ReplayBuffer(capacity: bufferSize)
        var options: SubjectOptions = []
        if ignoresStopEvents { options.insert(.ignoresStopEvents) }
        if replaysAfterStop { options.insert(.replaysAfterStop) }
        self.options = options
    }

    @inlinable var ignoresStopEvents: Bool { options.contains(.ignoresStopEvents) }
    @inlinable var replaysAfterStop: Bool { options.contains(.replaysAfterStop) }

    /// The terminal event, once the subject has ended.
    @inlinable
    var stopEvent: Event<Element>? {
        get { stopped ? (stopError.map { .error($0) } ?? .completed) : nil }
        set {
            stopped = newValue != nil
            stopError = newValue?.error
        }
    }

    /// What a subject seldom needs, boxed.
    @usableFromInline
    final class Overflow {
        /// Events sent while another thread (or an observer, reentrantly) is delivering.
        @usableFromInline var waitingEvents = FIFO<(sequence: UInt64, event: Event<Element>)>()
        /// Subscriber lists replaced while a delivery walked them, kept for it until its walk ends.
        @usableFromInline var retiredLists: [[SubjectSubscription<Element>]] = []
        @usableFromInline init() {}
    }

    /// The overflow box, made if needed.
    @inlinable
    var madeOverflow: Overflow {
        if let overflow { return overflow }
        let made = Overflow()
        overflow = made
        return made
    }

    /// Called holding `lock` before `subscriptions` changes. While a delivery walks the list without a
    /// reference of its own, the list is kept for it: the change then makes a new list rather than changing the
    /// walked one in place (or freeing it), and the walker lets go of the old one when its walk ends.
    @inlinable
    func retireWalkedListKeepingLock() {
        guard walking else { return }
        madeOverflow.retiredLists.append(subscriptions)
    }

    var hasObservers: Bool { lock.withLock { !subscriptions.isEmpty } }
    var stoppedWith: Event<Element>? { lock.withLock { stopEvent } }
    @inlinable var latest: Element? { lock.withLock { buffer.last(capacity: replayCapacity) } }

    /// Sends `event`; an element goes through `onNext(_:)`.
    @inlinable
    func on(_ event: Event<Element>) {
        guard event.isStopEvent else {
            if case .next(let element) = event { onNext(element) }
            return
        }
        lock.lock()
        if stopped || ignoresStopEvents {
            lock.unlock()
            return
        }
        lastSequence &+= 1
        stopEvent = event
        guard !draining else { return waitKeepingLockThenUnlock(event) }
        draining = true
        retireWalkedListKeepingLock()
        let targets = subscriptions
        subscriptions = []
        deliverKeepingLock(event, sequence: lastSequence, to: targets)
        deliverWaitingThenUnlock()
    }

    /// Sends `element`, which is copied into an event only to be queued (another thread or an observer is
    /// delivering) or for a subscriber without an element handler: a subject's own senders (`onNext`, `accept`)
    /// come here directly, saving the copies that taking the element out of an event costs.
    @inlinable
    func onNext(_ element: Element) {
        lock.lock()
        if stopped {
            lock.unlock()
            return
        }
        lastSequence &+= 1
        // The element the replay buffer lets go of dies after the lock, like every user value (see `Sink`, point 3).
        let displaced = buffer.append(element, capacity: replayCapacity)
        defer { withExtendedLifetime(displaced) {} }
        guard !draining else { return waitKeepingLockThenUnlock(.next(element)) }
        draining = true
        // The common case, nobody else delivering: this element goes out without touching the queue.
        let retiredLists = walkDeliveringKeepingLock(element)
        deliverWaitingThenUnlock()
        withExtendedLifetime(retiredLists) {}
    }

    /// Called holding `lock` while another thread, or an observer reentrantly, delivers: `event` (the latest sent)
    /// waits for it in the queue.
    @inlinable
    func waitKeepingLockThenUnlock(_ event: Event<Element>) {
        madeOverflow.waitingEvents.append((lastSequence, event))
        lock.unlock()
    }

    /// Called holding `lock` and the draining role once the sender's own event went out: delivers the events sent
    /// meanwhile (reentrantly, or from other threads), then gives up the role and the lock.
    @inlinable
    func deliverWaitingThenUnlock() {
        // The queue holds the only reference to each waiting event: every one taken from it is kept here too, so
        // that it dies after the lock, since a deinitialisation is user code (B12). Optional, so that the common
        // case makes and frees no array.
        var taken: [Event<Element>]?
        while let (sequence, event) = overflow?.waitingEvents.popFirst() {
            if taken == nil { taken = [] }
            taken?.append(event)
            let targets = subscriptions
            switch event {
            case .next(let element):
                // One copy of the element here, rather than one in each subscriber that has an element handler.
                targets.withUnsafeBufferPointer { targets in
                    deliverKeepingLock(element: element, as: event, sequence: sequence, to: targets)
                }
            case .error, .completed:
                retireWalkedListKeepingLock()
                subscriptions = []
                deliverKeepingLock(event, sequence: sequence, to: targets)
            }
        }
        draining = false
        lock.unlock()
        withExtendedLifetime(taken) {}
    }

    /// Delivers `element` from a source that never sends concurrently with itself and is the only sender (a
    /// reactor's loop, or a serialized stream): the subject's own queue and draining role are then not needed,
    /// which saves a lock round trip per element. Subscribers still get elements in order, each serialized by its
    /// subscription, and one that joins meanwhile is skipped through its replay, as with `on(_:)`.
    @inlinable
    func publishFromSoleSender(_ element: Element) {
        let leftovers = publishFromSoleSenderKeepingLock(element)
        lock.unlock()
        // The previous state, say, dies here, after the lock: its deinitialisation may use the reactor.
        withExtendedLifetime(leftovers) {}
    }

    /// What a delivery let go of, for the caller to release after the lock (a deinitialisation is user code, B12):
    /// the element the replay buffer let go of, and the subscriber lists retired while the delivery walked them. A
    /// struct rather than a tuple: returned as a tuple, the loop's caller copied the state through generic code.
    @usableFromInline
    struct Leftovers {
        @usableFromInline let displaced: Element?
        @usableFromInline let retiredLists: [[SubjectSubscription<Element>]]?

        @inlinable
        init(displaced: Element?, retiredLists: [[SubjectSubscription<Element>]]?) {
            self.displaced = displaced
            self.retiredLists = retiredLists
        }
    }

    /// `publishFromSoleSender`, returning holding `lock` once every subscriber had the element, so that a caller
    /// sharing the lock can use the same critical section (the reactor's loop ends its turn in it). The caller must
    /// release what it returns after unlocking.
    @inlinable
    func publishFromSoleSenderKeepingLock(_ element: Element) -> Leftovers {
        lock.lock()
        guard !stopped else { return Leftovers(displaced: nil, retiredLists: nil) }
        lastSequence &+= 1
        let displaced = buffer.append(element, capacity: replayCapacity)
        return Leftovers(displaced: displaced, retiredLists: walkDeliveringKeepingLock(element))
    }

    /// Called holding `lock` by the one thread delivering the latest element (number `lastSequence`): delivers it to
    /// every subscriber, returning holding `lock` with the subscriber lists retired meanwhile, which the caller
    /// releases after unlocking.
    ///
    /// The list is walked without a reference of its own, which saves a reference-count pair (two atomic
    /// instructions) per element: `walking` makes whoever changes the list meanwhile, while a subscriber runs
    /// without the lock, keep the walked one alive and unchanged for this walk (`retireWalkedListKeepingLock`).
    /// A walk may nest inside another (a subscriber that makes the sender send again, reentrantly, where nothing
    /// queues it): only the outermost lets go of the retired lists.
    @inlinable @inline(__always)
    func walkDeliveringKeepingLock(_ element: Element) -> [[SubjectSubscription<Element>]]? {
        let outerWalk = walking
        walking = true
        // The buffer's address outlives the closure, which `walking` makes safe (above).
        let walked = subscriptions.withUnsafeBufferPointer { $0 }
        deliverKeepingLock(element: element, as: .next(element), sequence: lastSequence, to: walked)
        walking = outerWalk
        guard !outerWalk, let overflow, !overflow.retiredLists.isEmpty else { return nil }
        return exchange(&overflow.retiredLists, with: [])
    }

    /// Called holding `lock`; returns holding it, once `event` (number `sequence`) went to each of `targets` that
    /// joined before it.
    ///
    /// The subscriptions share `lock`, so one critical section ends a delivery and starts the next: one lock round
    /// trip per subscriber and event, plus the caller's. Each target is checked when its turn comes, since an
    /// earlier observer may have disposed it.
    @inlinable
    func deliverKeepingLock(_ event: Event<Element>, sequence: UInt64, to targets: [SubjectSubscription<Element>]) {
        var index = 0
        let count = targets.count
        while index < count {
            Unmanaged.passUnretained(targets[index])._withUnsafeGuaranteedRef { subscription in
                if subscription.joinedAt < sequence { subscription.deliverKeepingLock(event) }
            }
            index += 1
        }
    }

    /// `deliverKeepingLock(_:sequence:to:)` for `event`, which is `.next(element)`: a subscriber with an element
    /// handler gets `element` itself. Taking the element out of the event in the subscriber's handler would copy it
    /// (generic code binds a payload by copying the enum), which for a state means retaining and releasing each of
    /// its strings and arrays, per subscriber and state.
    @inlinable @inline(__always)
    func deliverKeepingLock(element: Element, as event: Event<Element>, sequence: UInt64,
                            to targets: UnsafeBufferPointer<SubjectSubscription<Element>>) {
        var index = 0
        let count = targets.count
        while index < count {
            Unmanaged.passUnretained(targets[index])._withUnsafeGuaranteedRef { subscription in
                guard subscription.joinedAt < sequence else { return }
                if subscription.elementHandler != nil || subscription.elementObserver != nil {
                    subscription.deliverKeepingLock(element: element, as: event)
                } else {
                    subscription.deliverKeepingLock(event)
                }
            }
            index += 1
        }
    }

    /// Subscribes `observer`. `waitsForDelivery` and `onDispose` make the subscription the user-facing end (see
    /// `SubjectSubscription`); operators subscribe without them.
    ///
    /// `onNext` or `elementHandler`, when given, receives the elements in place of `observer`, which still receives
    /// everything else (see `deliverKeepingLock(element:as:sequence:to:)`); it must do with an element what
    /// `observer` would. An `elementHandler` is called without reference counting (see `ElementHandler`); a plain
    /// `onNext` costs no heap block of its own.
    @inlinable
    func subscribe(_ observer: AnyObserver<Element>, waitsForDelivery: Bool = false, onDispose: (() -> Void)? = nil,
                   onNext: ((Element) -> Void)? = nil, elementHandler: ElementHandler<Element>? = nil) -> Disposable {
        lock.lock()
        let subscription = SubjectSubscription(observer, onNext: onNext, elementHandler: elementHandler,
                                               joinedAt: lastSequence, core: self,
                                               waitsForDelivery: waitsForDelivery, onDispose: onDispose)
        if stopEvent == nil && buffer.queue == nil {
            // The common case, at most one element to replay (a relay's, a reactor's state): delivered in this
            // critical section's delivery role, so it goes out before any newer event, which waits in the queue,
            // and without a queue of its own (a heap block) for it.
            retireWalkedListKeepingLock()
            subscriptions.append(subscription)
            if let latest = buffer.latest { subscription.deliverKeepingLock(.next(latest)) }
            lock.unlock()
            return subscription
        }
        // The replay is queued while `lock` (which the subscription shares) is held, so it goes out before any newer
        // event.
        if !stopped || replaysAfterStop {
            buffer.forEach { subscription.pending.append(.next($0)) }
        }
        if let stopEvent {
            subscription.pending.append(stopEvent)
        } else {
            retireWalkedListKeepingLock()
            subscriptions.append(subscription)
        }
        lock.unlock()
        subscription.drain()
        return subscription
    }

    /// Lets every subscription go without an event, as a subject that goes away does in RxSwift: for a subject
    /// whose owner died (its object, or a reactor's state and actions). Each subscriber's closures are released at
    /// once, so nothing a dead subject held keeps its subscribers alive, but nobody is told `completed`: a chain
    /// bound onwards (`bind(to:)` another subject) must not end what it feeds because its source died.
    func releaseBecauseOwnerDied() {
        lock.lock()
        // Usually nobody is left (views disposed their bags first): this runs unspecialised, where even moving an
        // empty array out costs the runtime's generic metadata lookups.
        guard !subscriptions.isEmpty else { return lock.unlock() }
        retireWalkedListKeepingLock()
        let all = subscriptions
        subscriptions = []
        lock.unlock()
        for subscription in all { subscription.releaseBecauseSourceDied() }
    }

}

/// One observer of a subject: it drops everything after a terminal event or dispose, and serializes deliveries.
///
/// When the user subscribes to a subject directly, this is also the user-facing end of the subscription (no `Sink`
/// in between): it then runs `onDispose` when the subscription ends and, like a boundary `Sink`, makes a
/// `dispose()` from another thread wait for a delivery in progress (rule A3).
@usableFromInline
final class SubjectSubscription<Element>: Disposable, @unchecked Sendable { // fields are guarded by `lock`
    @usableFromInline let joinedAt: UInt64
    /// The core's: a lock per subscription would cost a heap block each, and neither side calls the other while
    /// holding it. Stored rather than read through `core`: reading it through `core` cost five reference-count
    /// pairs per delivery.
    @usableFromInline let lock: Lock
    /// The observer's handler alone: its `lifetime` is of no use here, and copying one reference per delivery
    /// instead of two saves a reference-count pair per event (and two words per subscription).
    @usableFromInline @exclusivity(unchecked) var observer: AnyObserver<Element>.EventHandler?
    /// Receives every element in place of `observer` when set, whether it goes out at once
    /// (`SubjectCore.deliverKeepingLock(element:as:sequence:to:)`) or waited in `pending` as an event;
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
        // The common case, nothing queued and nobody delivering: deliver directly.
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
    /// if needed.
    @inlinable
    func finishDeliveryKeepingLock(ended: Bool) {
        if pending.isEmpty && !ended && !gate.disposerWaiting && observer != nil {
            // The common case: nothing arrived meanwhile and nobody waits, so there is nothing to drain or wake.
            gate.thread = nil
            delivering = false
            return
        }
        drainKeepingLock(ended: ended)
    }

    /// `deliverKeepingLock(_:)` for `event`, which is `.next(element)`, to the element handler if it can go out now.
    ///
    /// An `elementHandler` is called without retaining it: while this thread holds the delivering role, nobody else
    /// lets it go (`dispose()` leaves it to this thread), so the subscription's reference keeps it alive.
    @inlinable
    func deliverKeepingLock(element: Element, as event: Event<Element>) {
        // Busy, or a replay waits: queued as an event, in order. Not delivering, the handlers are set only while
        // the subscription is live (see `elementHandler`).
        guard !delivering && pending.isEmpty else { return deliverKeepingLock(event) }
        if elementHandler != nil {
            let handler = Unmanaged.passUnretained(elementHandler.unsafelyUnwrapped)
            enterDeliveryThenUnlock()
            handler._withUnsafeGuaranteedRef { $0.receive(element) }
        } else if let elementObserver {
            enterDeliveryThenUnlock()
            elementObserver(element)
            // Released outside the lock, as in `deliverKeepingLock(_:)`.
            _ = consume elementObserver
        } else {
            return deliverKeepingLock(event) // ended: dropped
        }
        lock.lock()
        finishDeliveryKeepingLock(ended: false)
    }

    /// Called holding `lock`: takes the delivering role (and the gate, for a user-facing end) and lets go of the
    /// lock, so that the caller can call the subscriber.
    @inlinable
    func enterDeliveryThenUnlock() {
        delivering = true
        if waitsForDelivery { _ = gate.enter() }
        lock.unlock()
    }

    /// Called holding `lock` by the delivering thread once a call to the observer returned, before it leaves the
    /// gate: if the subscription was disposed meanwhile, `dispose()` left the element handler to this thread, which
    /// lets it go now, outside the lock (Sink point 3), and before a disposer waiting on the gate returns (A3).
    @inlinable
    func releaseElementHandlerIfEndedKeepingLock() {
        guard observer == nil, elementHandler != nil else { return }
        let released = exchange(&elementHandler, with: nil)
        lock.unlock()
        _ = consume released
        lock.lock()
    }

    /// Delivers what the subscriber's replay left queued, unless another thread is already delivering.
    @inlinable
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
    @inlinable
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
    func releaseBecauseSourceDied() {
        lock.lock()
        let released = (observer, delivering ? nil : exchange(&elementHandler, with: nil), elementObserver, pending)
        observer = nil
        elementObserver = nil
        pending = FIFO()
        lock.unlock()
        withExtendedLifetime(released) {}
    }

    @usableFromInline func dispose() {
        lock.lock()
        // Taken out rather than dropped here: the observer and queued events may hold the last references to the
        // user's objects, whose deinitialisation may take this lock (a view's dispose bag disposing its other
        // subscriptions). They are released below, after the lock. The element handler is left to a delivery in
        // progress, which may be calling it unretained (see `elementHandler`).
        let released = (observer, delivering ? nil : exchange(&elementHandler, with: nil), elementObserver, pending)
        observer = nil
        elementObserver = nil
        pending = FIFO()
        let whenEnded = onDispose
        onDispose = nil
        // The core's lock is this subscription's own. A plain search rather than `removeAll(where:)`: this method
        // runs unspecialised, where the generic algorithm cost thousands of instructions for one element.
        if let index = core.subscriptions.firstIndex(where: { $0 === self }) {
            core.retireWalkedListKeepingLock()
            core.subscriptions.remove(at: index)
        }
        lock.unlock()
        withExtendedLifetime(released) {}
        whenEnded?.call()
        if waitsForDelivery {
            DeliveryGate.waitUntilIdle { lock.withLock { gate.isBusyElsewhere() } }
        }
    }
}

/// The choices a subject's core is made with (see `SubjectCore.init`), in one byte.
@usableFromInline
struct SubjectOptions: OptionSet {
    @usableFromInline let rawValue: UInt8
    @inlinable init(rawValue: UInt8) { self.rawValue = rawValue }

    @inlinable static var ignoresStopEvents: SubjectOptions { SubjectOptions(rawValue: 1) }
    @inlinable static var replaysAfterStop: SubjectOptions { SubjectOptions(rawValue: 2) }
}

/// The latest elements a subject replays: none, one (behavior subjects, relays, a reactor's state — kept inline,
/// with no queue to churn per element), or up to `capacity` in a queue, boxed so that the common subjects do not
/// carry its two words. The capacity is the subject's (`SubjectCore.replayCapacity`), kept there in spare bytes.
@usableFromInline
struct ReplayBuffer<Element> {
    @usableFromInline
    final class Queue {
        @usableFromInline var elements = FIFO<Element>()
        @usableFromInline init() {}
    }

    @usableFromInline var latest: Element?
    @usableFromInline let queue: Queue?

    @inlinable
    init(capacity: Int) {
        queue = capacity > 1 ? Queue() : nil
    }

    /// Returns the element that left the buffer, for the caller to release after its lock.
    @inlinable
    mutating func append(_ element: Element, capacity: Int32) -> Element? {
        switch capacity {
        case 0: return nil
        case 1:
            return exchange(&latest, with: element)
        default:
            let queue = queue.unsafelyUnwrapped
            queue.elements.append(element)
            return queue.elements.count > Int(capacity) ? queue.elements.popFirst() : nil
        }
    }

    @inlinable
    func last(capacity: Int32) -> Element? {
        capacity <= 1 ? latest : queue.unsafelyUnwrapped.elements.elements.last
    }

    @inlinable
    func forEach(_ body: (Element) -> Void) {
        if let queue {
            for element in queue.elements.elements { body(element) }
        } else if let latest {
            body(latest)
        }
    }
}

/// A closure in a box of one word, for fields that are usually empty.
@usableFromInline
final class DisposeCallback {
    @usableFromInline let call: () -> Void
    @inlinable init(_ call: @escaping () -> Void) { self.call = call }
}
