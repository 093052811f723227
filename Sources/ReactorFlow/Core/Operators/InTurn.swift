extension Observable {
    /// Subscribes `sink` to the observables of `sources` one at a time, iterating the sequence lazily (an endless
    /// one works): the way `concat` and `Observable.catch(sequence:)` go through their sources.
    ///
    /// With `movingOnAfterError`, a source's error moves to the next source and its completion ends the whole;
    /// otherwise its completion moves on and its error ends the whole. When the sources run out, the whole
    /// completes, or, having moved on after an error, fails with the last one. Each move is trampolined on
    /// `CurrentThreadScheduler`, so a long run of sources that end synchronously never recurses.
    static func runInTurn<Sources: Sequence>(_ sources: Sources, into sink: Sink<Element>, movingOnAfterError: Bool) -> Disposable
    where Sources.Element == Observable<Element> {
        var remaining = sources.makeIterator()
        let current = SerialDisposable()
        func subscribeNext(after error: (any Error)?) {
            guard !sink.isDisposed else { return }
            guard let next = remaining.next() else {
                if let error { sink.onError(error) } else { sink.onCompleted() }
                return
            }
            current.disposable = next.subscribeInside(AnyObserver<Element> { event in
                switch event {
                case .completed where !movingOnAfterError:
                    _ = CurrentThreadScheduler.instance.schedule { subscribeNext(after: nil) }
                case .error(let error) where movingOnAfterError:
                    _ = CurrentThreadScheduler.instance.schedule { subscribeNext(after: error) }
                default:
                    sink.on(event)
                }
            })
        }
        let first = CurrentThreadScheduler.instance.schedule { subscribeNext(after: nil) }
        return Disposables.create(first, current)
    }
}
