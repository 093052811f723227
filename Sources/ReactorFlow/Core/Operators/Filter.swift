extension ObservableType {
    /// Keeps the elements for which `predicate` is true; a thrown error ends the stream.
    ///
    /// ```swift
    /// Observable.of(1, 2, 3, 4).filter { $0.isMultiple(of: 2) } // 2, 4
    /// ```
    @inlinable
    public func filter(_ predicate: @escaping (Element) throws -> Bool) -> Observable<Element> {
        lift { sink, wantsElements in
            func filter(_ element: Element) {
                do {
                    if try predicate(element) { sink.onNext(element) }
                } catch {
                    sink.onError(error)
                }
            }
            return ChainHead(
                events: { event in
                    switch event {
                    case .next(let element): filter(element)
                    default: sink.forwardStop(event)
                    }
                },
                elements: wantsElements ? { filter($0) } : nil)
        }
    }

    /// Drops every element and keeps only the terminal event.
    @inlinable
    public func ignoreElements() -> Observable<Element> {
        filter { _ in false }
    }
}
