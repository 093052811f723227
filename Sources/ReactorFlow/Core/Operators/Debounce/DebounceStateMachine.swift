/// The rules of `debounce`, apart from locking and timers.
///
/// Each element replaces the pending one and restarts the quiet period; when the period passes with no newer
/// element, the pending element is emitted. On completion the pending element is emitted first.
struct DebounceStateMachine<Element> {
    private var pending: Element?
    private var generation: UInt64 = 0

    /// An element arrived: returns the generation whose timer must be started (the previous timer is obsolete), and
    /// the element it replaced, for the caller to release after its lock (rule B12).
    mutating func next(_ element: Element) -> (generation: UInt64, replaced: Element?) {
        let replaced = exchange(&pending, with: element)
        generation &+= 1
        return (generation, replaced)
    }

    /// The timer of `generation` fired: returns the element to emit, if that timer is still current.
    mutating func timerFired(_ generation: UInt64) -> Element? {
        guard generation == self.generation else { return nil }
        defer { pending = nil }
        return pending
    }

    /// The source completed: returns the pending element, to emit before completing.
    mutating func completed() -> Element? {
        generation &+= 1
        defer { pending = nil }
        return pending
    }

    /// The source failed: the pending element is dropped; returned, for the caller to release after its lock.
    mutating func failed() -> Element? {
        generation &+= 1
        return pending.take()
    }
}
