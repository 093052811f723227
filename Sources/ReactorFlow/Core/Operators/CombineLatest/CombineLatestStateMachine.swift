/// The rules of `combineLatest`, apart from locking and subscriptions.
///
/// Emits the latest value of every source each time any source emits, once all have emitted at least once.
/// Completes when every source has completed, or when a source emits while every other source has completed and
/// some source still has no value (no combination can ever be made): RxSwift 6's rules.
struct CombineLatestStateMachine {
    private var latest: [Any?]
    private var valueCount = 0
    private var completed: [Bool]
    private var completedCount = 0

    init(sourceCount: Int) {
        latest = Array(repeating: nil, count: sourceCount)
        completed = Array(repeating: false, count: sourceCount)
    }

    /// What `next` decided.
    struct Next {
        /// The combination to emit, if every source has a value.
        var combination: [Any]?
        /// Whether the output completes now, without a combination.
        var completes = false
        /// The value the new one replaced, for the caller to release after its lock (rule B12).
        var replaced: Any?
    }

    /// Source `index` emitted `value`.
    mutating func next(_ index: Int, _ value: Any) -> Next {
        let replaced = exchange(&latest[index], with: value)
        if replaced == nil { valueCount += 1 }
        guard valueCount == latest.count else {
            let othersCompleted = completedCount - (completed[index] ? 1 : 0) == latest.count - 1
            return Next(completes: othersCompleted, replaced: replaced)
        }
        return Next(combination: latest.map { $0! }, replaced: replaced) // every slot is filled once valueCount == count
    }

    /// Source `index` completed: returns whether the output completes now.
    mutating func completed(_ index: Int) -> Bool {
        if !completed[index] {
            completed[index] = true
            completedCount += 1
        }
        return completedCount == completed.count
    }
}
