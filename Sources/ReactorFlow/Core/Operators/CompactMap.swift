extension ObservableType {
    /// Transforms each element and drops the `nil` results; a thrown error ends the stream.
    ///
    /// ```swift
    /// Observable.of("1", "x", "3").compactMap { Int($0) } // 1, 3
    /// ```
    @inlinable
    public func compactMap<Result>(_ transform: @escaping (Element) throws -> Result?) -> Observable<Result> {
        lift { sink, wantsElements in
            func forward(_ element: Element) {
                do {
                    if let result = try transform(element) { sink.onNext(result) }
                } catch {
                    sink.onError(error)
                }
            }
            return ChainHead(
                events: { event in
                    switch event {
                    case .next(let element): forward(element)
                    default: sink.forwardStop(event)
                    }
                },
                elements: wantsElements ? { forward($0) } : nil)
        }
    }
}
