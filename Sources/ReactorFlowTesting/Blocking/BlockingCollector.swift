import ReactorFlow

/// What a blocking operator has gathered so far, and whether it is done: the logic of `BlockingRun`, apart from its
/// lock and its waiting.
///
/// It collects the elements that pass the operator's predicate until it has `limit` of them, the stream ends, the
/// predicate throws, or the deadline passes; after that it ignores everything.
struct BlockingCollector<Element> {
    /// How many passing elements end the wait (`first()`: 1, `single()`: 2); `nil` waits for the stream's end.
    let limit: Int?
    private var elements: [Element] = []
    /// Why the stream failed, once it has: its own error, the predicate's, or `RxError.timeout`.
    private var failure: Error?
    private(set) var isCollecting = true

    init(limit: Int?) {
        self.limit = limit
    }

    /// Takes an element that `passed` tested (`.success(true)` keeps it). Returns whether this ended the wait.
    mutating func receive(_ element: Element, passed: Result<Bool, Error>) -> Bool {
        guard isCollecting else { return false }
        switch passed {
        case .success(false):
            return false
        case .success(true):
            elements.append(element)
            if let limit, elements.count >= limit { isCollecting = false }
            return !isCollecting
        case .failure(let error):
            return end(failing: error)
        }
    }

    /// Takes the stream's end (`nil` for `completed`). Returns whether this ended the wait.
    mutating func end(failing error: Error?) -> Bool {
        guard isCollecting else { return false }
        failure = error
        isCollecting = false
        return true
    }

    /// The outcome: what the stream sent, and how it ended.
    var result: MaterializedSequenceResult<Element> {
        if let failure { return .failed(elements: elements, error: failure) }
        return .completed(elements: elements)
    }
}
