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
    public func take(while predicate: @escaping (Element) throws -> Bool, behavior: TakeBehavior = .exclusive) -> Observable<Element> {
        lift { sink in
            { event in
                switch event {
                case .next(let element):
                    do {
                        if try predicate(element) {
                            sink.onNext(element)
                        } else {
                            if behavior == .inclusive { sink.onNext(element) }
                            sink.onCompleted()
                        }
                    } catch {
                        sink.onError(error)
                    }
                default:
                    sink.forwardStop(event)
                }
            }
        }
    }
}
