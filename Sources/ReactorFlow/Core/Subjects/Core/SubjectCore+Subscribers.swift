// Joining and leaving a subject: a new subscriber gets the replay before any newer event; a subject whose
// owner died lets its subscribers go without an event.

extension SubjectCore {
    /// Subscribes `observer`. `waitsForDelivery` and `onDispose` make the subscription the user-facing end (see
    /// `SubjectSubscription`); operators subscribe without them.
    ///
    /// `onNext` or `elementHandler`, when given, receives the elements in place of `observer`, which still receives
    /// everything else (see `deliverKeepingLock(element:sequence:to:eventsOutOfLine:)`); it must do with an element
    /// what `observer` would. An `elementHandler` is called without reference counting (see `ElementHandler`); a
    /// plain `onNext` costs no heap block of its own.
    ///
    /// Specialised for the element type, so that the common case costs no generic metadata lookups, but never
    /// inlined: one copy per element type rather than one per place that subscribes.
    @inlinable @inline(never)
    func subscribe(_ observer: AnyObserver<Element>, waitsForDelivery: Bool = false, onDispose: (() -> Void)? = nil,
                   onNext: ((Element) -> Void)? = nil, elementHandler: ElementHandler<Element>? = nil) -> Disposable {
        lock.lock()
        let subscription = SubjectSubscription(observer, onNext: onNext, elementHandler: elementHandler,
                                               joinedAt: lastSequence, core: self,
                                               waitsForDelivery: waitsForDelivery, onDispose: onDispose)
        if stopEvent == nil && replayQueue == nil {
            // The common case, at most one element to replay (a relay's, a reactor's state): delivered in this
            // critical section's delivery role, so it goes out before any newer event, which waits in the queue,
            // and without a queue of its own (a heap block) for it.
            retireWalkedListKeepingLock()
            subscriptions.append(subscription)
            if let latest { subscription.deliverKeepingLock(.next(latest)) }
            lock.unlock()
            return subscription
        }
        return subscribeWithReplayKeepingLock(subscription)
    }

    /// `subscribe` for a subject that ended or replays more than one element: called holding `lock`, returns
    /// without it. Compiled once, unspecialised, since few subjects need it.
    @usableFromInline
    func subscribeWithReplayKeepingLock(_ subscription: SubjectSubscription<Element>) -> Disposable {
        // The replay is queued while `lock` (which the subscription shares) is held, so it goes out before any newer
        // event.
        if !stopped || replaysAfterStop {
            forEachReplayed { subscription.pending.append(.next($0)) }
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
