extension ObservableType {
    /// Folds every element into `seed` and sends the result, mapped by `mapResult`, when the stream completes.
    /// A thrown error fails the stream.
    ///
    /// ```swift
    /// Observable.of(1, 2, 3).reduce(0, accumulator: +, mapResult: { "\($0)" }) // "6"
    /// ```
    public func reduce<Accumulate, Result>(_ seed: Accumulate, accumulator: @escaping (Accumulate, Element) throws -> Accumulate,
                                          mapResult: @escaping (Accumulate) throws -> Result) -> Observable<Result> {
        let source = asObservable()
        return .make { sink in
            var accumulated = seed
            return source.subscribeInside(AnyObserver<Element> { event in
                switch event {
                case .next(let element):
                    do { accumulated = try accumulator(accumulated, element) } catch { sink.onError(error) }
                case .error(let error):
                    sink.onError(error)
                case .completed:
                    do {
                        sink.onNext(try mapResult(accumulated))
                        sink.onCompleted()
                    } catch {
                        sink.onError(error)
                    }
                }
            })
        }
    }

    /// Folds every element into `seed` and sends the result when the stream completes.
    ///
    /// ```swift
    /// Observable.of(1, 2, 3).reduce(0, accumulator: +) // 6
    /// ```
    public func reduce<Accumulate>(_ seed: Accumulate, accumulator: @escaping (Accumulate, Element) throws -> Accumulate) -> Observable<Accumulate> {
        reduce(seed, accumulator: accumulator, mapResult: { $0 })
    }

    /// Every element, in one array, when the stream completes: a `Single`.
    ///
    /// ```swift
    /// Observable.of(1, 2, 3).toArray() // Single: [1, 2, 3]
    /// ```
    public func toArray() -> Single<[Element]> {
        Single(raw: reduce(into: [Element]()) { $0.append($1) })
    }

    /// `reduce` that changes its accumulator in place.
    func reduce<Accumulate>(into seed: Accumulate, _ accumulator: @escaping (inout Accumulate, Element) -> Void) -> Observable<Accumulate> {
        reduce(seed, accumulator: { accumulated, element in
            var accumulated = accumulated
            accumulator(&accumulated, element)
            return accumulated
        })
    }
}
