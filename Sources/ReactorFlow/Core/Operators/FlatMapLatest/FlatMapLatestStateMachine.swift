/// The rules of `flatMapLatest`, apart from locking and subscriptions.
///
/// Each source element starts a new generation; only the current generation's inner observable may deliver.
/// The output completes once the source has completed and the current inner observable (if any) has too.
@usableFromInline
struct FlatMapLatestStateMachine {
    @inlinable init() {}
    @usableFromInline var generation: UInt64 = 0
    @usableFromInline var innerActive = false
    @usableFromInline var sourceCompleted = false

    /// A source element arrived: returns the generation of the inner observable it starts. The previous inner
    /// observable must be disposed.
    @inlinable
    mutating func sourceNext() -> UInt64 {
        generation &+= 1
        innerActive = true
        return generation
    }

    /// Whether an inner element of `generation` may be delivered.
    @inlinable
    func innerNext(_ generation: UInt64) -> Bool {
        generation == self.generation
    }

    /// An inner observable completed; returns whether the output completes now.
    @inlinable
    mutating func innerCompleted(_ generation: UInt64) -> Bool {
        guard generation == self.generation else { return false }
        innerActive = false
        return sourceCompleted
    }

    /// The source completed; returns whether the output completes now.
    @inlinable
    mutating func sourceCompletedEvent() -> Bool {
        sourceCompleted = true
        return !innerActive
    }
}
