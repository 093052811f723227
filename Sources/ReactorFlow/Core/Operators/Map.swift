extension ObservableType {
    /// Transforms each element; a thrown error ends the stream with that error.
    ///
    /// ```swift
    /// reactor.state.map(\.count) // Observable<Int>
    /// ```
    @inlinable @inline(never)
    public func map<Result>(_ transform: @escaping (Element) throws -> Result) -> Observable<Result> {
        lift(MapStep(transform: transform))
    }
}

/// `map`'s work on each element.
@usableFromInline
struct MapStep<Input, Output>: OperatorStep {
    @usableFromInline let transform: (Input) throws -> Output

    @inlinable @inline(__always)
    init(transform: @escaping (Input) throws -> Output) {
        self.transform = transform
    }

    @inlinable @inline(__always)
    func receive(_ element: Input, of runner: StepRunner<Self>) {
        let transformed: Output
        do { transformed = try transform(element) } catch { return runner.output.onError(error) }
        runner.sendNext(transformed)
    }
}
