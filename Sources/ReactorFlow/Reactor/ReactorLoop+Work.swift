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

        /// Counts a stream's end as finished in `tracker`; does nothing for other work. Called when the loop comes
        /// to it, and for work dropped because the reactor is gone, so that nobody waits for that stream forever.
        /// Compiled once: the reactor type's code reaches it only on those rare paths.
        @usableFromInline @inline(never) @_semantics("optimize.sil.specialize.generic.never")
        static func countStreamEnd(of work: Work, in tracker: EffectTracker) {
            guard case .streamEnded(let token) = work else { return }
            tracker.streamEnded(token: token)
        }
    }
}
