extension Observable {
    /// Combines the latest elements of every source into an array. An empty collection emits `[]` and completes.
    ///
    /// ```swift
    /// Observable.combineLatest([a, b, c]) // Observable<[Int]>
    /// ```
    public static func combineLatest<Sources: Collection>(_ collection: Sources) -> Observable<[Element]>
    where Sources.Element: ObservableConvertibleType, Sources.Element.Element == Element {
        Observable<[Element]>.combineLatest(collection) { $0 }
    }

    /// Combines the latest elements of every source with `resultSelector`, each time one emits, once all have
    /// emitted. An empty collection emits `resultSelector([])` and completes.
    ///
    /// ```swift
    /// Observable.combineLatest(fields.map(\.isValid)) { $0.allSatisfy { $0 } }
    /// ```
    public static func combineLatest<Sources: Collection>(
        _ collection: Sources, resultSelector: @escaping ([Sources.Element.Element]) throws -> Element
    ) -> Observable<Element> where Sources.Element: ObservableConvertibleType {
        guard !collection.isEmpty else { return ofNoSources(resultSelector) }
        return combineLatestAny(collection.map { $0.asObservable().map { $0 as Any } }) { values in
            try resultSelector(values.map { $0 as! Sources.Element.Element }) // types fixed by construction
        }
    }

    /// What `combineLatest` of no sources sends on each subscription, as RxSwift's does: `resultSelector([])`, then
    /// completion (or the error it throws).
    static func ofNoSources<Value>(_ resultSelector: @escaping ([Value]) throws -> Element) -> Observable<Element> {
        make { sink in
            do {
                sink.onNext(try resultSelector([]))
                sink.onCompleted()
            } catch {
                sink.onError(error)
            }
            return Disposables.create()
        }
    }

    @usableFromInline
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
