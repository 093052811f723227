extension Observable {
    /// Zips a collection of sources into arrays. Completes once every source has completed, or when an element
    /// arrives that cannot be paired because every other source has completed (RxSwift 6's collection form).
    /// An empty collection completes at once.
    public static func zip<Sources: Collection>(_ collection: Sources) -> Observable<[Element]>
    where Sources.Element: ObservableConvertibleType, Sources.Element.Element == Element {
        Observable<[Element]>.zip(collection) { $0 }
    }

    /// Combines the n-th elements of every source with `resultSelector`; completes as `zip(_:)` of a collection does.
    ///
    /// ```swift
    /// Observable.zip(uploads) { results in results.count }
    /// ```
    public static func zip<Sources: Collection>(
        _ collection: Sources, resultSelector: @escaping ([Sources.Element.Element]) throws -> Element
    ) -> Observable<Element> where Sources.Element: ObservableConvertibleType {
        zipAny(collection.map { $0.asObservable().map { $0 as Any } }, endsWhenAnElementCannotBePaired: true) { values in
            try resultSelector(values.map { $0 as! Sources.Element.Element }) // types fixed by construction
        }
    }

    /// Pairs the n-th elements of `sources`. As RxSwift 6's `zip` does, it completes only once every source has
    /// completed, even if a completed source left nothing to pair; the collection form also completes when an element
    /// arrives while every other source has completed (`endsWhenAnElementCannotBePaired`). The first error fails it.
    @usableFromInline
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
