extension Observable {
    /// Pairs the n-th elements of both sources; completes when a completed source has nothing left to pair.
    ///
    /// ```swift
    /// Observable.zip(requests, responses) { ($0, $1) }
    /// ```
    public static func zip<A: ObservableConvertibleType, B: ObservableConvertibleType>(
        _ a: A, _ b: B, resultSelector: @escaping (A.Element, B.Element) throws -> Element
    ) -> Observable<Element> {
        zipAny([a.asObservable().map { $0 as Any }, b.asObservable().map { $0 as Any }]) { values in
            try resultSelector(values[0] as! A.Element, values[1] as! B.Element) // types fixed by construction
        }
    }

    /// Zips three sources.
    public static func zip<A: ObservableConvertibleType, B: ObservableConvertibleType, C: ObservableConvertibleType>(
        _ a: A, _ b: B, _ c: C, resultSelector: @escaping (A.Element, B.Element, C.Element) throws -> Element
    ) -> Observable<Element> {
        zipAny([a.asObservable().map { $0 as Any }, b.asObservable().map { $0 as Any }, c.asObservable().map { $0 as Any }]) { values in
            try resultSelector(values[0] as! A.Element, values[1] as! B.Element, values[2] as! C.Element) // types fixed by construction
        }
    }

    /// Zips a collection of sources into arrays.
    public static func zip<Inner>(_ sources: [Observable<Inner>]) -> Observable<[Inner]> where Element == [Inner] {
        Observable<[Inner]>.zipAny(sources.map { $0.map { $0 as Any } }) { values in values.map { $0 as! Inner } } // types fixed by construction
    }

    static func zipAny(_ sources: [Observable<Any>], resultSelector: @escaping ([Any]) throws -> Element) -> Observable<Element> {
        guard !sources.isEmpty else { return .empty() }
        return make { sink in
            let downstream = SerializedObserver(AnyObserver(sink))
            let state = LockedValue((queues: Array(repeating: FIFO<Any>(), count: sources.count),
                                     completed: Array(repeating: false, count: sources.count)))
            let subscriptions = sources.enumerated().map { index, source in
                source.subscribeInside(AnyObserver<Any> { event in
                    switch event {
                    case .next(let value):
                        let (row, finished) = state.withLock { state -> ([Any]?, Bool) in
                            state.queues[index].append(value)
                            guard state.queues.allSatisfy({ !$0.isEmpty }) else { return (nil, false) }
                            let row = state.queues.indices.map { state.queues[$0].popFirst()! } // each queue was non-empty
                            let finished = state.queues.indices.contains { state.completed[$0] && state.queues[$0].isEmpty }
                            return (row, finished)
                        }
                        if let row {
                            do { downstream.onNext(try resultSelector(row)) } catch { downstream.onError(error) }
                        }
                        if finished { downstream.onCompleted() }
                    case .error(let error):
                        downstream.onError(error)
                    case .completed:
                        let finished = state.withLock { state -> Bool in
                            state.completed[index] = true
                            return state.queues[index].isEmpty
                        }
                        if finished { downstream.onCompleted() }
                    }
                })
            }
            return Disposables.create(subscriptions)
        }
    }
}
