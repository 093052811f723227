extension ObservableType {
    /// Drops the first `count` elements.
    ///
    /// ```swift
    /// reactor.state.skip(1) // everything but the replayed current state
    /// ```
    public func skip(_ count: Int) -> Observable<Element> {
        lift { sink in
            var remaining = count
            return { event in
                switch event {
                case .next(let element):
                    if remaining > 0 {
                        remaining -= 1
                    } else {
                        sink.onNext(element)
                    }
                default:
                    sink.forwardStop(event)
                }
            }
        }
    }

    /// Drops elements while `predicate` holds, then emits everything; a thrown error ends the stream.
    ///
    /// ```swift
    /// Observable.of(1, 2, 5, 1).skip(while: { $0 < 3 }) // 5, 1
    /// ```
    public func skip(while predicate: @escaping (Element) throws -> Bool) -> Observable<Element> {
        lift { sink in
            var skipping = true
            return { event in
                switch event {
                case .next(let element):
                    do {
                        if skipping, try predicate(element) { return }
                        skipping = false
                        sink.onNext(element)
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
