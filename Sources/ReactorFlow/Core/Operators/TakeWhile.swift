/// Whether `take(while:)` and friends include the element that ended them.
public enum TakeBehavior: Sendable {
    /// Include the element that failed the predicate.
    case inclusive
    /// Stop before it (the default).
    case exclusive
}

extension ObservableType {
    /// Emits elements while `predicate` holds, then completes; a thrown error ends the stream.
    ///
    /// ```swift
    /// Observable.of(1, 2, 5, 1).take(while: { $0 < 3 }) // 1, 2, completed
    /// ```
    @inlinable
    public func take(while predicate: @escaping (Element) throws -> Bool, behavior: TakeBehavior = .exclusive) -> Observable<Element> {
        lift(TakeWhileStep(predicate: predicate, behavior: behavior))
    }

    /// Emits elements until `predicate` holds for one, then completes; with `.inclusive`, that element is emitted
    /// first. A thrown error ends the stream.
    ///
    /// ```swift
    /// Observable.of(1, 2, 5, 1).take(until: { $0 > 3 }, behavior: .inclusive) // 1, 2, 5, completed
    /// ```
    @inlinable
    public func take(until predicate: @escaping (Element) throws -> Bool, behavior: TakeBehavior = .exclusive) -> Observable<Element> {
        take(while: { try !predicate($0) }, behavior: behavior)
    }
}

/// `take(while:behavior:)`'s work on each element.
@usableFromInline
struct TakeWhileStep<Element>: OperatorStep {
    @usableFromInline typealias Input = Element
    @usableFromInline typealias Output = Element
    @usableFromInline let predicate: (Element) throws -> Bool
    @usableFromInline let behavior: TakeBehavior

    @inlinable
    init(predicate: @escaping (Element) throws -> Bool, behavior: TakeBehavior) {
        self.predicate = predicate
        self.behavior = behavior
    }

    @inlinable
    func receive(_ element: Element, of runner: StepRunner<Self>) {
        do {
            if try predicate(element) {
                runner.sendNext(element)
            } else {
                if behavior == .inclusive { runner.sendNext(element) }
                runner.output.onCompleted()
            }
        } catch {
            runner.output.onError(error)
        }
    }
}
