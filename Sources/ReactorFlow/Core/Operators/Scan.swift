extension ObservableType {
    /// Emits each new accumulated value, starting from `seed`; `seed` itself is not emitted.
    ///
    /// ```swift
    /// Observable.of(1, 2, 3).scan(0, accumulator: +) // 1, 3, 6
    /// ```
    @inlinable
    public func scan<Accumulate>(_ seed: Accumulate, accumulator: @escaping (Accumulate, Element) throws -> Accumulate) -> Observable<Accumulate> {
        scan(into: seed) { accumulated, element in accumulated = try accumulator(accumulated, element) }
    }

    /// Like `scan(_:accumulator:)`, mutating the accumulated value in place.
    ///
    /// ```swift
    /// Observable.of("a", "b").scan(into: [String]()) { $0.append($1) } // ["a"], ["a", "b"]
    /// ```
    @inlinable
    public func scan<Accumulate>(into seed: Accumulate, accumulator: @escaping (inout Accumulate, Element) throws -> Void) -> Observable<Accumulate> {
        lift(ScanStep(accumulated: seed, accumulator: accumulator))
    }
}

/// `scan`'s work on each element; keeps the accumulated value.
@usableFromInline
struct ScanStep<Element, Accumulate>: OperatorStep {
    @usableFromInline typealias Input = Element
    @usableFromInline typealias Output = Accumulate
    @usableFromInline var accumulated: Accumulate
    @usableFromInline let accumulator: (inout Accumulate, Element) throws -> Void

    @inlinable
    init(accumulated: Accumulate, accumulator: @escaping (inout Accumulate, Element) throws -> Void) {
        self.accumulated = accumulated
        self.accumulator = accumulator
    }

    @inlinable
    mutating func receive(_ element: Element, of runner: StepRunner<Self>) {
        do {
            try accumulator(&accumulated, element)
            runner.sendNext(accumulated)
        } catch {
            runner.output.onError(error)
        }
    }
}
