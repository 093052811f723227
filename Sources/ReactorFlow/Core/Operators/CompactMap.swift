extension ObservableType {
    /// Transforms each element and drops the `nil` results; a thrown error ends the stream.
    ///
    /// ```swift
    /// Observable.of("1", "x", "3").compactMap { Int($0) } // 1, 3
    /// ```
    @inlinable @inline(never)
    public func compactMap<Result>(_ transform: @escaping (Element) throws -> Result?) -> Observable<Result> {
        lift(CompactMapStep(transform: transform))
    }
}

/// `compactMap`'s work on each element.
@usableFromInline
struct CompactMapStep<Input, Output>: OperatorStep {
    @usableFromInline let transform: (Input) throws -> Output?

    @inlinable @inline(__always)
    init(transform: @escaping (Input) throws -> Output?) {
        self.transform = transform
    }

    @inlinable @inline(__always)
    func receive(_ element: Input, of runner: StepRunner<Self>) {
        do {
            if let result = try transform(element) { runner.sendNext(result) }
        } catch {
            runner.output.onError(error)
        }
    }
}
