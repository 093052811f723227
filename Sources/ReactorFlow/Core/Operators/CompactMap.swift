extension ObservableType {
    /// Transforms each element and drops the `nil` results; a thrown error ends the stream.
    ///
    /// ```swift
    /// Observable.of("1", "x", "3").compactMap { Int($0) } // 1, 3
    /// ```
    @inlinable
    public func compactMap<Result>(_ transform: @escaping (Element) throws -> Result?) -> Observable<Result> {
        lift { sink in
            { event in
                switch event {
                case .next(let element):
                    do {
                        if let result = try transform(element) { sink.onNext(result) }
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
