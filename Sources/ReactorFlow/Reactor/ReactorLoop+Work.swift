extension ReactorLoop {
    /// One item of work.
    @usableFromInline
    enum Work {
        /// An action for `mutate`, with the `send(_:)` call that sent it, if any.
        case action(R.Action, SendToken?)
        /// A mutation for `reduce`.
        case mutation(R.Mutation)
        /// A lane's stream ended and the lane has queued actions: start them (`.serial`).
        case resumeLanes
        /// A mutation stream ended: it is counted finished (for `send(_:)` and `waitUntilIdle()`) once the mutations
        /// it sent before are reduced, which is when the loop comes to this.
        case streamEnded(SendToken?)
    }
}
