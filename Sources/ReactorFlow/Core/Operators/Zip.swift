extension Observable {
    /// Zips a collection of sources into arrays. Completes once every source has completed, or when an element
    /// arrives that cannot be paired because every other source has completed (RxSwift 6's collection form).
    public static func zip<Inner>(_ sources: [Observable<Inner>]) -> Observable<[Inner]> where Element == [Inner] {
        Observable<[Inner]>.zipAny(sources.map { $0.map { $0 as Any } }, endsWhenAnElementCannotBePaired: true) { values in
            values.map { $0 as! Inner } // types fixed by construction
        }
    }

    /// Pairs the n-th elements of `sources`. As RxSwift 6's `zip` does, it completes only once every source has
    /// completed, even if a completed source left nothing to pair; the collection form also completes when an element
    /// arrives while every other source has completed (`endsWhenAnElementCannotBePaired`). The first error fails it.
    static func zipAny(_ sources: [Observable<Any>], endsWhenAnElementCannotBePaired: Bool = false,
                       resultSelector: @escaping ([Any]) throws -> Element) -> Observable<Element> {
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
                            guard state.queues.allSatisfy({ !$0.isEmpty }) else {
                                let othersCompleted = state.completed.indices.allSatisfy { $0 == index || state.completed[$0] }
                                return (nil, endsWhenAnElementCannotBePaired && othersCompleted)
                            }
                            return (state.queues.indices.map { state.queues[$0].popFirst()! }, false) // each queue was non-empty
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
                            return state.completed.allSatisfy { $0 }
                        }
                        if finished { downstream.onCompleted() }
                    }
                })
            }
            return Disposables.create(subscriptions)
        }
    }
}
