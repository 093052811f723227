extension ObservableType {
    /// Maps an element to an observable only while no earlier inner observable is still running; elements that
    /// arrive meanwhile are dropped. The classic guard against a double tap.
    ///
    /// ```swift
    /// loginTaps.flatMapFirst { api.login() } // taps during a login are ignored
    /// ```
    public func flatMapFirst<Inner: ObservableConvertibleType>(_ selector: @escaping (Element) throws -> Inner) -> Observable<Inner.Element> {
        let source = asObservable()
        return .make { sink in
            let downstream = SerializedObserver(AnyObserver(sink))
            let group = CompositeDisposable()
            let state = LockedValue((busy: false, sourceCompleted: false))
            group.insert(source.subscribeInside(AnyObserver<Element> { event in
                switch event {
                case .next(let element):
                    let accepted = state.withLock { state -> Bool in
                        if state.busy { return false }
                        state.busy = true
                        return true
                    }
                    guard accepted else { return }
                    let inner: Observable<Inner.Element>
                    do { inner = try selector(element).asObservable() } catch {
                        downstream.onError(error)
                        return
                    }
                    let holder = SingleAssignmentDisposable()
                    guard let key = group.insert(holder) else { return }
                    holder.setDisposable(inner.subscribeInside(AnyObserver { innerEvent in
                        guard innerEvent.isCompleted else {
                            downstream.on(innerEvent)
                            return
                        }
                        group.forget(key)
                        let done = state.withLock { state -> Bool in
                            state.busy = false
                            return state.sourceCompleted
                        }
                        if done { downstream.onCompleted() }
                    }))
                case .error(let error):
                    downstream.onError(error)
                case .completed:
                    let done = state.withLock { state -> Bool in
                        state.sourceCompleted = true
                        return !state.busy
                    }
                    if done { downstream.onCompleted() }
                }
            }))
            return group
        }
    }
}
