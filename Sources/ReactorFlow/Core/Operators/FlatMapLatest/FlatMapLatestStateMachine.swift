/// The rules of `flatMapLatest`, apart from locking and subscriptions.
///
/// Each source element starts a new generation; only the current generation's inner observable may deliver.
/// The output completes once the source has completed and the current inner observable (if any) has too.
struct FlatMapLatestStateMachine {
    private var generation: UInt64 = 0
    private var innerActive = false
    private var sourceCompleted = false

    /// A source element arrived: returns the generation of the inner observable it starts. The previous inner
    /// observable must be disposed.
    mutating func sourceNext() -> UInt64 {
        generation &+= 1
        innerActive = true
        return generation
    }

    /// Whether an inner element of `generation` may be delivered.
    func innerNext(_ generation: UInt64) -> Bool {
        generation == self.generation
    }

    /// An inner observable completed; returns whether the output completes now.
    mutating func innerCompleted(_ generation: UInt64) -> Bool {
        guard generation == self.generation else { return false }
        innerActive = false
        return sourceCompleted
    }

    /// The source completed; returns whether the output completes now.
    mutating func sourceCompletedEvent() -> Bool {
        sourceCompleted = true
        return !innerActive
    }
}
