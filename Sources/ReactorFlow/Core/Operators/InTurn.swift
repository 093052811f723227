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
        return runInTurn(InTurnRun(next: { remaining.next() }), into: sink, movingOnAfterError: movingOnAfterError)
    }

    /// `runInTurn` over an array (a `concat` of given sources), read by index as an array of objects, the same
    /// layout: this code is compiled once, where a generic iterator over the array looks up its types at run time
    /// for every source.
    static func runInTurn(_ sources: [Observable<Element>], into sink: Sink<Element>, movingOnAfterError: Bool) -> Disposable {
        runInTurn(InTurnRun(unsafeBitCast(sources, to: [AnyObject].self)), into: sink, movingOnAfterError: movingOnAfterError)
    }

    /// `runInTurn`'s work, with `run` giving the sources in order. Per source it makes only the observer that source
    /// is subscribed with; the move to the next source is made once and kept by `run` (see `InTurnRun`).
    private static func runInTurn(_ run: InTurnRun, into sink: Sink<Element>, movingOnAfterError: Bool) -> Disposable {
        func subscribeNext() {
            guard !sink.isDisposed else { return }
            guard let next = run.next() else { return end(sink, with: run.lastError) }
            // A source is subscribed through its class, not `subscribeInside`, whose protocol-extension call would
            // look up the observable's type at run time for each source.
            // The event is taken apart once, here: the sink is told whether it ends the stream rather than looking again.
            run.current.disposable = unsafeDowncast(next, to: Observable<Element>.self).runInside(AnyObserver { event in
                switch event {
                case .next:
                    sink.deliver(event, isStop: false)
                case .completed:
                    guard movingOnAfterError else { return run.moveOn(after: nil) }
                    sink.deliver(event, isStop: true)
                case .error(let error):
                    guard !movingOnAfterError else { return run.moveOn(after: error) }
                    sink.deliver(event, isStop: true)
                }
            })
        }
        let moveOn = run.start(moving: subscribeNext)
        let first = CurrentThreadScheduler.instance.schedule(moveOn)
        // Run at once (no trampoline was running), the first move left nothing to cancel.
        return first is NopDisposable ? run : Disposables.create(first, run)
    }

    /// Ends `sink` with `error`, or completes it. A function of its own, so that its look-up of the event's type at
    /// run time is made once per subscription, not each time a source is subscribed.
    @inline(never)
    private static func end(_ sink: Sink<Element>, with error: (any Error)?) {
        if let error { sink.onError(error) } else { sink.on(.completed) }
    }
}

/// One subscription of `runInTurn`: where it is in its sources, the current source's subscription, and the move to
/// the next source, which the trampoline runs each time a source ends. Not generic, so making one looks up no type at
/// run time; one object rather than captured variables, whose every access the runtime would check for exclusivity,
/// and a move made once rather than once per source.
///
/// The move holds this object (it subscribes the next source with it), and this object holds the move: the cycle is
/// broken when the run is disposed, which its sink does when it ends, as every sink disposes its upstream.
final class InTurnRun: Disposable, @unchecked Sendable { // `moveOnToNext` is guarded by its inline lock; `index` and `lastError` belong to the subscription's current turn (sources are subscribed one after another)
    /// Its lock's word (see `InlineLock`): the first stored property.
    private var lockWord = 0
    /// The sources, for a run over an array; let go of once the last one is taken, so that a source that ended is not
    /// kept while the last one runs (as with `andThen`).
    @exclusivity(unchecked) private var sources: [AnyObject]
    private let nextSource: (() -> AnyObject?)?
    @exclusivity(unchecked) private var index = 0
    /// The error the last source ended with, when errors move on: what the whole fails with if no source follows.
    @exclusivity(unchecked) private(set) var lastError: (any Error)?
    /// The subscription to the current source.
    let current = SerialDisposable()
    private var moveOnToNext: (() -> Void)?

    private var lock: InlineLock { InlineLock(of: self) }

    /// A run over `sources`, read by index.
    init(_ sources: [AnyObject]) {
        self.sources = sources
        nextSource = nil
    }

    /// A run over what `next` returns, until it returns `nil`.
    init(next: @escaping () -> AnyObject?) {
        sources = []
        nextSource = next
    }

    /// Keeps `move`, the move to the next source, and returns it for the first move.
    ///
    /// Here and below, the lock is taken and given back around the field rather than with `withLock`: a closure that
    /// passes through a generic function is converted to its generic form and back, each conversion an allocation.
    func start(moving move: @escaping () -> Void) -> () -> Void {
        lock.lock()
        moveOnToNext = move
        lock.unlock()
        return move
    }

    /// The next source, or `nil` once they ran out.
    func next() -> AnyObject? {
        if let nextSource { return nextSource() }
        guard index < sources.count else { return nil }
        let source = sources[index]
        index += 1
        if index == sources.count { sources = [] }
        return source
    }

    /// The current source ended (with `error`, when errors move on): moves to the next one on the trampoline, unless
    /// the run was disposed.
    func moveOn(after error: (any Error)?) {
        lastError = error
        lock.lock()
        let move = moveOnToNext
        lock.unlock()
        guard let move else { return }
        CurrentThreadScheduler.instance.trampoline(move)
    }

    func dispose() {
        current.dispose()
        lock.lock()
        let move = moveOnToNext
        moveOnToNext = nil
        lock.unlock()
        // Let go of after the lock: the move holds the sink, whose release may run user code.
        _ = move
    }
}
