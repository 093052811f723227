extension Observable {
    /// Combines the latest elements of both sources each time either emits, once both have emitted.
    /// See `README.md` beside this file.
    ///
    /// ```swift
    /// Observable.combineLatest(email, password) { !$0.isEmpty && $1.count >= 8 }
    /// ```
    public static func combineLatest<A: ObservableConvertibleType, B: ObservableConvertibleType>(
        _ a: A, _ b: B, resultSelector: @escaping (A.Element, B.Element) throws -> Element
    ) -> Observable<Element> {
        combineLatestAny([a.asObservable().map { $0 as Any }, b.asObservable().map { $0 as Any }]) { values in
            try resultSelector(values[0] as! A.Element, values[1] as! B.Element) // types fixed by construction
        }
    }

    /// Combines the latest elements of three sources.
    public static func combineLatest<A: ObservableConvertibleType, B: ObservableConvertibleType, C: ObservableConvertibleType>(
        _ a: A, _ b: B, _ c: C, resultSelector: @escaping (A.Element, B.Element, C.Element) throws -> Element
    ) -> Observable<Element> {
        combineLatestAny([a.asObservable().map { $0 as Any }, b.asObservable().map { $0 as Any }, c.asObservable().map { $0 as Any }]) { values in
            try resultSelector(values[0] as! A.Element, values[1] as! B.Element, values[2] as! C.Element) // types fixed by construction
        }
    }

    /// Combines the latest elements of four sources.
    public static func combineLatest<A: ObservableConvertibleType, B: ObservableConvertibleType, C: ObservableConvertibleType, D: ObservableConvertibleType>(
        _ a: A, _ b: B, _ c: C, _ d: D, resultSelector: @escaping (A.Element, B.Element, C.Element, D.Element) throws -> Element
    ) -> Observable<Element> {
        combineLatestAny([a.asObservable().map { $0 as Any }, b.asObservable().map { $0 as Any },
                          c.asObservable().map { $0 as Any }, d.asObservable().map { $0 as Any }]) { values in
            try resultSelector(values[0] as! A.Element, values[1] as! B.Element, values[2] as! C.Element, values[3] as! D.Element) // types fixed by construction
        }
    }

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
                        let (combination, replaced) = state.withLock { $0.next(index, value) }
                        if let row = combination {
                            do { downstream.onNext(try resultSelector(row)) } catch { downstream.onError(error) }
                        }
                        // Released after the lock, its deinitialisation being user code (B12), and after this
                        // element's combination, so that what it sends comes after.
                        withExtendedLifetime(replaced) {}
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

extension Observable {
    /// Combines the latest elements of both sources into tuples.
    public static func combineLatest<A: ObservableConvertibleType, B: ObservableConvertibleType>(_ a: A, _ b: B) -> Observable<(A.Element, B.Element)> where Element == (A.Element, B.Element) {
        combineLatest(a, b) { ($0, $1) }
    }

    /// Pairs the n-th elements of both sources into tuples.
    public static func zip<A: ObservableConvertibleType, B: ObservableConvertibleType>(_ a: A, _ b: B) -> Observable<(A.Element, B.Element)> where Element == (A.Element, B.Element) {
        zip(a, b) { ($0, $1) }
    }
}
