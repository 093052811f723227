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

    /// Source `index` emitted `value`: returns the combination to emit, if every source has a value, and the value
    /// `value` replaced, for the caller to release after its lock (rule B12).
    mutating func next(_ index: Int, _ value: Any) -> (combination: [Any]?, replaced: Any?) {
        let replaced = exchange(&latest[index], with: value)
        if replaced == nil { valueCount += 1 }
        guard valueCount == latest.count else { return (nil, replaced) }
        return (latest.map { $0! }, replaced) // every slot is filled once valueCount == count
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
