// The sole-sender path: a sender that never sends concurrently with itself (a reactor's loop) delivers
// without the queue, walking the subscriber list without retaining it; a list that changes meanwhile is
// retired rather than changed in place, and released by the walker when its walk ends.

extension SubjectCore {
    /// Called holding `lock` before `subscriptions` changes. While a delivery walks the list without a
    /// reference of its own, the list is kept for it: the change then makes a new list rather than changing the
    /// walked one in place (or freeing it), and the walker lets go of the old one when its walk ends.
    @inlinable
    func retireWalkedListKeepingLock() {
        guard walking else { return }
        madeOverflow.retiredLists.append(subscriptions)
    }


    /// Delivers `element` from a source that never sends concurrently with itself and is the only sender (a
    /// reactor's loop, or a serialized stream): the subject's own queue and draining role are then not needed,
    /// which saves a lock round trip per element. Subscribers still get elements in order, each serialized by its
    /// subscription, and one that joins meanwhile is skipped through its replay, as with `on(_:)`.
    @inlinable @inline(__always)
    func publishFromSoleSender(_ element: Element) {
        let leftovers = publishFromSoleSenderKeepingLock(element, kept: element)
        lock.unlock()
        // The previous state, say, dies here, after the lock: its deinitialisation may use the reactor.
        leftovers.release()
    }

    /// The sole sender's first element: a reactor's initial state, once its pipeline is wired. Compiled once: it runs
    /// once per reactor, and specialised, it was a few percent of a reactor type's optimiser time. Nobody has
    /// subscribed yet in the common case, so the element only goes into the replay buffer, for the first subscriber;
    /// a subscriber that came earlier (from a `transform` hook) gets it through `onNext(_:)`.
    @usableFromInline @inline(never) @_semantics("optimize.sil.specialize.generic.never")
    func publishFirstFromSoleSenderUnspecialized(_ element: Element) {
        lock.lock()
        guard subscriptions.isEmpty, !stopped, !draining, replayCapacity == 1, lastSequence == 0 else {
            lock.unlock()
            return onNext(element)
        }
        lastSequence = 1
        latest = element
        lock.unlock()
    }

    /// What a delivery let go of, for the caller to release after the lock (a deinitialisation is user code, B12):
    /// the element the replay buffer let go of, and the subscriber lists retired while the delivery walked them. A
    /// struct rather than a tuple: returned as a tuple, the loop's caller copied the state through generic code.
    @usableFromInline
    struct Leftovers {
        @usableFromInline let displaced: Element?
        @usableFromInline let retiredLists: [[AnySubjectSubscription]]?

        @inlinable @inline(__always)
        init(displaced: Element?, retiredLists: [[AnySubjectSubscription]]?) {
            self.displaced = displaced
            self.retiredLists = retiredLists
        }

        /// Where the caller lets go of both, field by field. Kept alive as a whole (`_fixLifetime(leftovers)`), the
        /// struct stays in memory, where the compiler destroys each optional field through its type's value
        /// witnesses: a type lookup and generic calls, about 90 instructions per field and state. Field by field, a
        /// state of a few fields is released directly, one release per string or array.
        @inlinable @inline(__always)
        func release() {
            _fixLifetime(displaced)
            _fixLifetime(retiredLists)
        }
    }

    /// `publishFromSoleSender`, returning holding `lock` once every subscriber had the element, so that a caller
    /// sharing the lock can use the same critical section (the reactor's loop ends its turn in it). The caller must
    /// release what it returns after unlocking.
    ///
    /// `kept` is the replay buffer's own copy of `element`, made by the caller. The reactor's loop copies the state
    /// `reduce` just returned, whose fields the compiler has at hand, so a state of a few fields is copied with a
    /// retain per field. Copied here, from an argument in memory, such a state with fields of generic types (an
    /// array, a pulse) was copied through those types' value witnesses: a few hundred instructions per state.
    ///
    /// Specialised, but never inlined: each reactor type carries it once rather than in each place that publishes
    /// (its wiring and its loop). The walk over the subscribers is compiled once
    /// (`walkDeliveringUnspecializedKeepingLock`).
    @inlinable @inline(never)
    func publishFromSoleSenderKeepingLock(_ element: Element, kept: consuming Element) -> Leftovers {
        lock.lock()
        // A stopped subject keeps nothing: its copy goes back to the caller, to be released after the lock.
        guard !stopped else { return Leftovers(displaced: kept, retiredLists: nil) }
        lastSequence &+= 1
        let displaced = appendToReplay(kept)
        let retiredLists = walkDeliveringUnspecializedKeepingLock(element)
        // Moved, not copied: passed to the initialiser while still live, a state of many fields was copied and then
        // destroyed, both through the optional's value witnesses (about 500 instructions for a wide state).
        return Leftovers(displaced: consume displaced, retiredLists: retiredLists)
    }

    /// `walkDeliveringKeepingLock`, compiled once, for the reactor's state relay, which would otherwise carry a copy
    /// for every reactor type.
    ///
    /// It costs nothing per state over the specialised walk: code compiled once has `element` by address, which is
    /// how it hands it to each subscriber's handler (a closure stored in a generic class takes its argument by
    /// address), and it looks up no generic type at run time, since the event made for a subscriber without an
    /// element handler is made in a function of its own (`eventsOutOfLine`) and a subscription's fields do not
    /// depend on the element's type. Without `specialize.generic.never`, cross-module optimisation would copy this
    /// into the app and specialise it there.
    @usableFromInline @inline(never) @_semantics("optimize.sil.specialize.generic.never")
    func walkDeliveringUnspecializedKeepingLock(_ element: Element) -> [[AnySubjectSubscription]]? {
        walkDeliveringKeepingLock(element, eventsOutOfLine: true)
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
    ///
    /// `eventsOutOfLine` (see `deliverKeepingLock(element:sequence:to:eventsOutOfLine:)`) is a constant at each call,
    /// so only the chosen branch is made.
    @inlinable @inline(__always)
    func walkDeliveringKeepingLock(_ element: Element, eventsOutOfLine: Bool) -> [[AnySubjectSubscription]]? {
        let outerWalk = walking
        walking = true
        // The buffer's address outlives the closure, which `walking` makes safe (above).
        let walked = subscriptions.withUnsafeBufferPointer { $0 }
        deliverKeepingLock(element: element, sequence: nil, to: walked, eventsOutOfLine: eventsOutOfLine)
        walking = outerWalk
        guard !outerWalk, let overflow, !overflow.retiredLists.isEmpty else { return nil }
        return exchange(&overflow.retiredLists, with: [])
    }
}
