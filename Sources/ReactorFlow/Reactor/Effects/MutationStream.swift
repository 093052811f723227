/// What a `MutationStage` keeps of each running stream, whatever the reactor: not generic, so that the stage's
/// bookkeeping (`streams`, a lane's `running`) is one dictionary and one array type for every reactor type, made
/// once in an app rather than once per reactor type.
@usableFromInline
class RunningStream: @unchecked Sendable { // all fields are set once; `subscription` locks itself
    @usableFromInline let subscription = SingleAssignmentDisposable()
    @usableFromInline let lane: AnyHashable?
    @usableFromInline let token: SendToken?

    @inlinable
    init(lane: AnyHashable?, token: SendToken?) {
        self.lane = lane
        self.token = token
    }
}

/// One running mutation stream of a `MutationStage`.
@usableFromInline
final class MutationStream<R: Reactor>: RunningStream, ObserverType, @unchecked Sendable { // all fields are set once
    @usableFromInline let action: R.Action
    /// Weak: a late event racing with the reactor's release finds no stage and is dropped. Set only by the
    /// initialiser, so reading it needs no exclusivity check (a weak load is safe from any thread).
    @usableFromInline @exclusivity(unchecked) weak var stage: MutationStage<R>?

    /// Compiled once, as the loop's initialiser is: the caller allocates the stream with its type at hand, and setting
    /// the fields looks up no type at run time. It runs once per stream that is not known up front.
    @usableFromInline @inline(never) @_semantics("optimize.sil.specialize.generic.never")
    init(stage: MutationStage<R>, action: R.Action, lane: AnyHashable?, token: SendToken?) {
        self.stage = stage
        self.action = action
        super.init(lane: lane, token: token)
    }

    @inlinable @inline(__always)
    func on(_ event: Event<R.Mutation>) {
        guard let stage else { return }
        switch event {
        case .next(let mutation): stage.forward(mutation, from: self)
        case .error(let error): stage.finished(self, error: error)
        case .completed: stage.finished(self, error: nil)
        }
    }
}
