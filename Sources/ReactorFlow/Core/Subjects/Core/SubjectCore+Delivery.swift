// Sending to a subject: events from any thread, or reentrantly from an observer, wait in a queue and are
// delivered by one thread at a time, in the order they were sent, to every subscriber.

extension SubjectCore {
    /// Sends `event`; an element goes through `onNext(_:)`.
    @inlinable
    func on(_ event: Event<Element>) {
        guard event.isStopEvent else {
            if case .next(let element) = event { onNext(element) }
            return
        }
        end(with: event)
    }

    /// Sends the terminal `event`: once per subject, so compiled once, unspecialised.
    @usableFromInline
    func end(with event: Event<Element>) {
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
        let displaced = appendToReplay(element)
        defer { withExtendedLifetime(displaced) {} }
        guard !draining else { return waitKeepingLockThenUnlock(.next(element)) }
        draining = true
        // The common case, nobody else delivering: this element goes out without touching the queue.
        let retiredLists = walkDeliveringKeepingLock(element, eventsOutOfLine: false)
        deliverWaitingThenUnlock()
        withExtendedLifetime(retiredLists) {}
    }

    /// `onNext(_:)` compiled once, for a sender whose elements seldom go through the subject, or whose subject's
    /// subscribers are the user's streams: a reactor's action subject, which its loop bypasses unless a `transform`
    /// hook returned a stream of its own (see `ReactorLoop.receiveFromSubject`). Each element type that uses the
    /// specialised `onNext` carries its delivery code; one that only uses this carries none.
    ///
    /// Without a replay buffer (an action subject has none), it costs nothing per element over the specialised
    /// `onNext`: the element is handed on by address, and nothing on the way makes a value of a generic type, whose
    /// type code compiled once looks up at run time (see `walkDeliveringUnspecializedKeepingLock`). An element that
    /// must wait for another delivery becomes an event in a function of its own.
    @usableFromInline @inline(never) @_semantics("optimize.sil.specialize.generic.never")
    func onNextUnspecialized(_ element: Element) {
        guard replayCapacity == 0 else { return onNext(element) }
        lock.lock()
        if stopped {
            lock.unlock()
            return
        }
        lastSequence &+= 1
        guard !draining else { return waitNextUnspecializedKeepingLockThenUnlock(element) }
        draining = true
        let retiredLists = walkDeliveringKeepingLock(element, eventsOutOfLine: true)
        deliverWaitingThenUnlock()
        withExtendedLifetime(retiredLists) {}
    }

    /// `waitKeepingLockThenUnlock(.next(element))` for `onNextUnspecialized`, in a function of its own (see there).
    @usableFromInline @inline(never) @_semantics("optimize.sil.specialize.generic.never")
    func waitNextUnspecializedKeepingLockThenUnlock(_ element: Element) {
        waitKeepingLockThenUnlock(.next(element))
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
    ///
    /// Always inlined, also into code compiled once (`onNextUnspecialized`), where the optimiser inlines no generic
    /// call on its own.
    @inlinable @inline(__always)
    func deliverWaitingThenUnlock() {
        guard let overflow, !overflow.waitingEvents.isEmpty else {
            // The common case: nothing was sent meanwhile.
            draining = false
            return lock.unlock()
        }
        deliverQueuedThenUnlock()
    }

    /// `deliverWaitingThenUnlock` once events are waiting: compiled once, unspecialised, since the queue is rare
    /// and this loop is large.
    @usableFromInline
    func deliverQueuedThenUnlock() {
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
                    deliverKeepingLock(element: element, sequence: sequence, to: targets, eventsOutOfLine: false)
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


    /// Called holding `lock`; returns holding it, once `event` (number `sequence`) went to each of `targets` that
    /// joined before it.
    ///
    /// The subscriptions share `lock`, so one critical section ends a delivery and starts the next: one lock round
    /// trip per subscriber and event, plus the caller's. Each target is checked when its turn comes, since an
    /// earlier observer may have disposed it.
    @inlinable
    func deliverKeepingLock(_ event: Event<Element>, sequence: UInt64, to targets: [AnySubjectSubscription]) {
        var index = 0
        let count = targets.count
        while index < count {
            Unmanaged.passUnretained(unsafeDowncast(targets[index], to: SubjectSubscription<Element>.self))._withUnsafeGuaranteedRef { subscription in
                if subscription.joinedAt < sequence { subscription.deliverKeepingLock(event) }
            }
            index += 1
        }
    }

    /// `deliverKeepingLock(_:sequence:to:)` for `.next(element)`: a subscriber with an element handler gets `element`
    /// itself, and no event is made for it. Taking the element out of an event in the subscriber's handler would
    /// copy it (generic code binds a payload by copying the enum), which for a state means retaining and releasing
    /// each of its strings and arrays, per subscriber and state.
    ///
    /// With `eventsOutOfLine`, an element that goes out as an event (to a subscriber without an element handler, such
    /// as `observe(on:)` directly on a reactor's `state`, or queued behind a delivery in progress) is made into one
    /// in a function of its own (`SubjectSubscription.deliverNextUnspecializedKeepingLock`): in the walk compiled once
    /// (`walkDeliveringUnspecializedKeepingLock`), an event made inline would have its type looked up at run time on
    /// every element, whoever the subscribers are.
    ///
    /// `sequence` is nil when every target joined before the element was sent: the walk of the list as it was when
    /// the element was numbered, in the same critical section (`walkDeliveringKeepingLock`), whose list a subscriber
    /// that joins meanwhile does not enter (`retireWalkedListKeepingLock`). The check then costs nothing per target.
    @inlinable @inline(__always)
    func deliverKeepingLock(element: Element, sequence: UInt64?,
                            to targets: UnsafeBufferPointer<AnySubjectSubscription>, eventsOutOfLine: Bool) {
        var index = 0
        let count = targets.count
        let thread = DeliveryGate.currentThread
        while index < count {
            Unmanaged.passUnretained(unsafeDowncast(targets[index], to: SubjectSubscription<Element>.self))._withUnsafeGuaranteedRef { subscription in
                if let sequence, subscription.joinedAt >= sequence { return }
                if subscription.elementHandler != nil || subscription.elementObserver != nil {
                    subscription.deliverKeepingLock(element: element, thread: thread, eventsOutOfLine: eventsOutOfLine)
                } else if eventsOutOfLine {
                    subscription.deliverNextUnspecializedKeepingLock(element)
                } else {
                    subscription.deliverKeepingLock(.next(element))
                }
            }
            index += 1
        }
    }
}
