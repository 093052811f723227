// The inline window of rule B5: while the thread that runs the loop subscribes to a mutation stream, what the
// stream emits synchronously on that thread is reduced at once, unless a mutation sent reentrantly (from `reduce`
// or a state subscriber) is already waiting; then it queues behind it, so that every stream keeps its order.

extension ReactorLoop {
    /// Reduces `mutation` now if the running thread is subscribing to its stream (rule B5), or goes through
    /// `submit` otherwise: to run it now if the loop is idle, or to queue it.
    @inlinable
    func receiveMutation(_ mutation: R.Mutation) {
        lock.lock()
        guard inlineOpen, running, InlineWindow.isOpen(for: self) else {
            return startOrQueueHoldingLock(.mutation(mutation))
        }
        if reducingInline || inlineBlocked {
            // Reentrant (sent from `reduce` or a state subscriber), or behind such a one: it keeps its place. Work
            // that other threads queued meanwhile does not hold inline mutations back: it has no order with them.
            inlineBlocked = true
            pending.append(.mutation(mutation))
            return lock.unlock()
        }
        reducingInline = true
        lock.unlock()
        // The running thread holds the reactor for as long as it runs (see `startOrQueueHoldingLock`).
        if let reactor { _ = reduce(mutation, reactor: reactor, isLast: false) }
        // No lock: only the thread in this loop's window reads or writes `reducingInline` (others stop at the
        // window check above), so this saves a lock round trip per inline mutation.
        reducingInline = false
    }

    /// Subscribes to a mutation stream inside `subscribe`, on the thread that holds the running role: what the
    /// stream emits synchronously meanwhile is reduced inline (see `receiveMutation`).
    @inlinable
    func followInline(_ subscribe: () -> Void) {
        let saved = lock.withLock { () -> (Bool, Bool) in
            defer {
                inlineOpen = true
                inlineBlocked = false
            }
            return (inlineOpen, inlineBlocked)
        }
        InlineWindow.withOpen(for: self, subscribe)
        lock.withLock {
            inlineOpen = saved.0
            inlineBlocked = saved.1
        }
    }
}
