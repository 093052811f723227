extension ObservableType {
    /// Keeps the elements for which `predicate` is true; a thrown error ends the stream.
    ///
    /// ```swift
    /// Observable.of(1, 2, 3, 4).filter { $0.isMultiple(of: 2) } // 2, 4
    /// ```
    @inlinable @inline(never)
    public func filter(_ predicate: @escaping (Element) throws -> Bool) -> Observable<Element> {
        lift(FilterStep(predicate: predicate))
    }

    /// Drops every element and keeps only the terminal event: a stream with no element type (`Never`), which
    /// `asCompletable()` turns into a `Completable`.
    ///
    /// ```swift
    /// save(token).ignoreElements().asCompletable()
    /// ```
    @inlinable
    public func ignoreElements() -> Observable<Never> {
        compactMap { _ -> Never? in nil }
    }
}

/// `filter`'s work on each element.
@usableFromInline
struct FilterStep<Element>: OperatorStep {
    @usableFromInline typealias Input = Element
    @usableFromInline typealias Output = Element
    @usableFromInline let predicate: (Element) throws -> Bool

    @inlinable
    init(predicate: @escaping (Element) throws -> Bool) {
        self.predicate = predicate
    }

    @inlinable
    func receive(_ element: Element, of runner: StepRunner<Self>) {
        do {
            if try predicate(element) { runner.sendNext(element) }
        } catch {
            runner.output.onError(error)
        }
    }
}
