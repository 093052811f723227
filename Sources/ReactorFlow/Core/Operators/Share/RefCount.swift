extension ConnectableObservableType {
    /// Connects when the first subscriber arrives and disconnects when the last one leaves.
    ///
    /// As in RxSwift, a subscriber that the subject ends at once (a `multicast(_:)` subject that has ended)
    /// connects nothing, and the source's terminal event ends the connection before it is delivered.
    public func refCount() -> Observable<Element> {
        let state = LockedValue((machine: RefCountStateMachine(), connection: Disposable?.none, generation: UInt64(0)))
        return Observable.make { sink in
            var generation = UInt64(0)
            let subscription = self.subscribe(AnyObserver<Element> { event in
                if event.isStopEvent {
                    let ending = state.withLock { state -> Disposable? in
                        guard state.generation == generation else { return nil }
                        state.generation &+= 1
                        state.machine = RefCountStateMachine()
                        return exchange(&state.connection, with: nil)
                    }
                    ending?.dispose()
                }
                sink.on(event)
            })
            if sink.isDisposed { return subscription }
            let connect = state.withLock { state -> Bool in
                generation = state.generation
                return state.machine.subscribed()
            }
            if connect {
                let connection = self.connect()
                // Unless the source already ended while connecting: then this connection is over.
                let over = state.withLock { state -> Bool in
                    guard state.generation == generation else { return true }
                    state.connection = connection
                    return false
                }
                if over { connection.dispose() }
            }
            return Disposables.create {
                subscription.dispose()
                let ending = state.withLock { state -> Disposable? in
                    guard state.generation == generation, state.machine.unsubscribed() else { return nil }
                    return exchange(&state.connection, with: nil)
                }
                ending?.dispose()
            }
        }
    }
}
