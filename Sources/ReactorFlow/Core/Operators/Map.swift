extension ObservableType {
    /// Transforms each element; a thrown error ends the stream with that error.
    ///
    /// ```swift
    /// reactor.state.map(\.count) // Observable<Int>
    /// ```
    @inlinable
    public func map<Result>(_ transform: @escaping (Element) throws -> Result) -> Observable<Result> {
        lift { sink, wantsElements in
            func forward(_ element: Element) {
                do { sink.onNext(try transform(element)) } catch { sink.onError(error) }
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
