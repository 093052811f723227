extension ObservableType {
    /// Transforms each element; a thrown error ends the stream with that error.
    ///
    /// ```swift
    /// reactor.state.map(\.count) // Observable<Int>
    /// ```
    @inlinable
    public func map<Result>(_ transform: @escaping (Element) throws -> Result) -> Observable<Result> {
        lift { sink in
            { event in
                switch event {
                case .next(let element):
                    do { sink.onNext(try transform(element)) } catch { sink.onError(error) }
                default:
                    sink.forwardStop(event)
                }
            }
        }
    }
}
