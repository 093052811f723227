// The inline window of rule B5: while the thread that runs the loop subscribes to a mutation stream, what the
// stream emits synchronously on that thread is reduced at once, unless a mutation sent reentrantly (from `reduce`
// or a state subscriber) is already waiting; then it queues behind it, so that every stream keeps its order.

extension ReactorLoop {
    /// Reduces `mutation` now if the running thread is subscribing to its stream (rule B5), or goes through
    /// `submit` otherwise: to run it now if the loop is idle, or to queue it.
    ///
    /// Specialised, but never inlined: the mutation stage and a hook's stream both call it, and inlined into them it
    /// made functions that differ across reactor types in more constants than LLVM's function merging takes.
    @inlinable @inline(never)
    func receiveMutation(_ mutation: R.Mutation) {
        lock.lock()
        switch admitMutationHoldingLock() {
        case .startOrQueue:
            startOrQueueHoldingLock(.mutation(mutation))
        case .queueBehind:
            queueHoldingLock(.mutation(mutation))
        case .reduceInline:
            // The running thread holds the reactor for as long as it runs (see `startOrQueueHoldingLock`).
            if let reactor { _ = reduce(mutation, reactor: reactor, isLast: false) }
            // No lock: only the thread in this loop's window reads or writes `reducingInline` (others stop at the
            // window check), so this saves a lock round trip per inline mutation.
            reducingInline = false
        }
    }
}
