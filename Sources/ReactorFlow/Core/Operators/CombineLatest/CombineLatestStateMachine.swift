/// The rules of `combineLatest`, apart from locking and subscriptions.
///
/// Emits the latest value of every source each time any source emits, once all have emitted at least once.
/// Completes when every source has completed, or at once when a source completes without ever emitting (no
/// combination can ever be made).
struct CombineLatestStateMachine {
    private var latest: [Any?]
    private var valueCount = 0
    private var completed: [Bool]
    private var completedCount = 0

    init(sourceCount: Int) {
        latest = Array(repeating: nil, count: sourceCount)
        completed = Array(repeating: false, count: sourceCount)
    }

    /// Source `index` emitted `value`: returns the combination to emit, if every source has a value.
    mutating func next(_ index: Int, _ value: Any) -> [Any]? {
        if latest[index] == nil { valueCount += 1 }
        latest[index] = value
        guard valueCount == latest.count else { return nil }
        return latest.map { $0! } // every slot is filled once valueCount == count
    }

    /// Source `index` completed: returns whether the output completes now.
    mutating func completed(_ index: Int) -> Bool {
        if latest[index] == nil { return true }
        if !completed[index] {
            completed[index] = true
            completedCount += 1
        }
        return completedCount == completed.count
    }
}
