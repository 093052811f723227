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
        return runInTurn(next: { remaining.next() }, into: sink, movingOnAfterError: movingOnAfterError)
    }

    /// `runInTurn` over an array (a `concat` of given sources), read by index as an array of objects, the same
    /// layout: this code is compiled once, where a generic iterator over the array looks up its types at run time
    /// for every source.
    static func runInTurn(_ sources: [Observable<Element>], into sink: Sink<Element>, movingOnAfterError: Bool) -> Disposable {
        let cursor = SourceCursor(unsafeBitCast(sources, to: [AnyObject].self))
        return runInTurn(next: {
            guard let source = cursor.next() else { return nil }
            return unsafeDowncast(source, to: Observable<Element>.self)
        }, into: sink, movingOnAfterError: movingOnAfterError)
    }

    /// `runInTurn`'s work, with `nextSource` giving the sources in order and then `nil`.
    private static func runInTurn(next nextSource: @escaping () -> Observable<Element>?, into sink: Sink<Element>,
                                  movingOnAfterError: Bool) -> Disposable {
        let current = SerialDisposable()
        func subscribeNext(after error: (any Error)?) {
            guard !sink.isDisposed else { return }
            guard let next = nextSource() else { return end(sink, with: error) }
            // A source is subscribed through its class, not `subscribeInside`, whose protocol-extension call would
            // look up the observable's type at run time for each source.
            // The event is taken apart once, here: the sink is told whether it ends the stream rather than looking again.
            current.disposable = next.runInside(AnyObserver<Element> { event in
                switch event {
                case .next:
                    sink.deliver(event, isStop: false)
                case .completed:
                    guard movingOnAfterError else {
                        return CurrentThreadScheduler.instance.trampoline { subscribeNext(after: nil) }
                    }
                    sink.deliver(event, isStop: true)
                case .error(let error):
                    guard !movingOnAfterError else {
                        return CurrentThreadScheduler.instance.trampoline { subscribeNext(after: error) }
                    }
                    sink.deliver(event, isStop: true)
                }
            })
        }
        let first = CurrentThreadScheduler.instance.schedule { subscribeNext(after: nil) }
        // Run at once (no trampoline was running), the first move left nothing to cancel.
        return first is NopDisposable ? current : Disposables.create(first, current)
    }

    /// Ends `sink` with `error`, or completes it. A function of its own, so that its look-up of the event's type at
    /// run time is made once per subscription, not each time a source is subscribed.
    @inline(never)
    private static func end(_ sink: Sink<Element>, with error: (any Error)?) {
        if let error { sink.onError(error) } else { sink.on(.completed) }
    }
}

/// The position of `runInTurn` in an array of sources. Not generic, so making one looks up no type at run time; a
/// class rather than a captured variable, whose every access the runtime would check for exclusivity. Only the
/// subscription's current turn reads or moves it (sources are subscribed one after another).
private final class SourceCursor {
    let sources: [AnyObject]
    @exclusivity(unchecked) var index = 0

    init(_ sources: [AnyObject]) {
        self.sources = sources
    }

    /// The next source, or `nil` once they ran out.
    func next() -> AnyObject? {
        guard index < sources.count else { return nil }
        index += 1
        return sources[index - 1]
    }
}
