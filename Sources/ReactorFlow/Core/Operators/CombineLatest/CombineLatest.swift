extension Observable {
    /// Combines the latest elements of every source into an array.
    ///
    /// ```swift
    /// Observable.combineLatest([a, b, c]) // Observable<[Int]>
    /// ```
    public static func combineLatest<Inner>(_ sources: [Observable<Inner>]) -> Observable<[Inner]> where Element == [Inner] {
        Observable<[Inner]>.combineLatestAny(sources.map { $0.map { $0 as Any } }) { values in values.map { $0 as! Inner } } // types fixed by construction
    }

    static func combineLatestAny(_ sources: [Observable<Any>], resultSelector: @escaping ([Any]) throws -> Element) -> Observable<Element> {
        guard !sources.isEmpty else { return .empty() }
        return make { sink in
            let downstream = SerializedObserver(AnyObserver(sink))
            let state = LockedValue(CombineLatestStateMachine(sourceCount: sources.count))
            let subscriptions = sources.enumerated().map { index, source in
                source.subscribeInside(AnyObserver<Any> { event in
                    switch event {
                    case .next(let value):
                        let next = state.withLock { $0.next(index, value) }
                        if let row = next.combination {
                            do { downstream.onNext(try resultSelector(row)) } catch { downstream.onError(error) }
                        } else if next.completes {
                            downstream.onCompleted()
                        }
                        // Released after the lock, its deinitialisation being user code (B12), and after this
                        // element's combination, so that what it sends comes after.
                        withExtendedLifetime(next.replaced) {}
                    case .error(let error):
                        downstream.onError(error)
                    case .completed:
                        if state.withLock({ $0.completed(index) }) { downstream.onCompleted() }
                    }
                })
            }
            return Disposables.create(subscriptions)
        }
    }
}
