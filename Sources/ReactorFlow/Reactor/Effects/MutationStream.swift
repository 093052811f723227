/// One running mutation stream of a `MutationStage`.
@usableFromInline
final class MutationStream<R: Reactor>: ObserverType, @unchecked Sendable { // all fields are set once; `subscription` locks itself
    @usableFromInline let subscription = SingleAssignmentDisposable()
    @usableFromInline let action: R.Action
    @usableFromInline let lane: AnyHashable?
    @usableFromInline let token: SendToken?
    /// Weak: a late event racing with the reactor's release finds no stage and is dropped.
    @usableFromInline weak var stage: MutationStage<R>?

    @inlinable
    init(stage: MutationStage<R>, action: R.Action, lane: AnyHashable?, token: SendToken?) {
        self.stage = stage
        self.action = action
        self.lane = lane
        self.token = token
    }

    @inlinable
    func on(_ event: Event<R.Mutation>) {
        switch event {
        case .next(let mutation): stage?.forward(mutation, from: self)
        case .error(let error): stage?.finished(self, error: error)
        case .completed: stage?.finished(self, error: nil)
        }
    }
}
