import ReactorFlow

extension BlockingObservable {
    /// Waits for the stream to end and returns every element it sent.
    ///
    /// ```swift
    /// try Observable.of(1, 2).toBlocking().toArray()  // [1, 2]
    /// ```
    ///
    /// - Throws: the stream's error, or `RxError.timeout`.
    public func toArray() throws -> [Element] {
        try BlockingRun(source: source, timeout: timeout, limit: nil, predicate: nil).result().elementsOrThrow()
    }

    /// Waits for the first element and returns it, or `nil` if the stream completes without one.
    ///
    /// ```swift
    /// try reactor.state.map(\.count).toBlocking().first()  // the current count
    /// ```
    ///
    /// The subscription is disposed once the first element arrives.
    /// - Throws: the stream's error if it fails before its first element, or `RxError.timeout`.
    public func first() throws -> Element? {
        try BlockingRun(source: source, timeout: timeout, limit: 1, predicate: nil).result().elementsOrThrow().first
    }

    /// Waits for the stream to end and returns its last element, or `nil` if it sent none.
    ///
    /// ```swift
    /// try Observable.of(1, 2).toBlocking().last()  // 2
    /// ```
    ///
    /// - Throws: the stream's error, or `RxError.timeout`.
    public func last() throws -> Element? {
        try BlockingRun(source: source, timeout: timeout, limit: nil, predicate: nil).result().elementsOrThrow().last
    }

    /// Waits for the stream to end and returns its one element.
    ///
    /// ```swift
    /// try Single.just(1).toBlocking().single()  // 1
    /// ```
    ///
    /// It stops waiting at a second element.
    /// - Throws: `RxError.noElements` or `RxError.moreThanOneElement` if the stream does not send exactly one, its
    ///   error, or `RxError.timeout`.
    public func single() throws -> Element {
        try onlyElement(of: BlockingRun(source: source, timeout: timeout, limit: 2, predicate: nil))
    }

    /// Waits for the stream to end and returns the one element that satisfies `predicate`.
    ///
    /// ```swift
    /// try Observable.of(1, 2, 3).toBlocking().single { $0 > 2 }  // 3
    /// ```
    ///
    /// `predicate` sees each element until a second one satisfies it; then the subscription is disposed.
    /// - Throws: `RxError.noElements` or `RxError.moreThanOneElement` if not exactly one element satisfies
    ///   `predicate`, what `predicate` throws, the stream's error, or `RxError.timeout`.
    public func single(_ predicate: @escaping (Element) throws -> Bool) throws -> Element {
        try onlyElement(of: BlockingRun(source: source, timeout: timeout, limit: 2, predicate: predicate))
    }

    /// Waits for the stream to end and returns how it ended, with its elements, instead of throwing.
    ///
    /// ```swift
    /// Observable<Int>.error(failure).toBlocking().materialize()  // .failed(elements: [], error: failure)
    /// ```
    public func materialize() -> MaterializedSequenceResult<Element> {
        BlockingRun(source: source, timeout: timeout, limit: nil, predicate: nil).result()
    }

    private func onlyElement(of run: BlockingRun<Element>) throws -> Element {
        let elements = try run.result().elementsOrThrow()
        guard elements.count < 2 else { throw RxError.moreThanOneElement }
        guard let element = elements.first else { throw RxError.noElements }
        return element
    }
}

extension MaterializedSequenceResult {
    /// The elements of a completed stream; the error of a failed one.
    func elementsOrThrow() throws -> [T] {
        switch self {
        case .completed(let elements): return elements
        case .failed(_, let error): throw error
        }
    }
}
