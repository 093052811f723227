/// What a `transform` hook receives: a stream whose work starts only when it is subscribed.
///
/// One is made per hook for every reactor, and usually dropped at once: the default transforms return it unchanged,
/// and the pipeline then joins the stages around it directly. So that a reactor with the defaults carries no code for
/// the stream's work, a start specialised for the reactor's types (the mutation stage behind `transform(mutation:)`'s
/// input) is given only once the hook returned a stream of its own (see `ReactorPipeline.wire`); the states behind
/// `transform(state:)`'s input start in code compiled once whatever the hook returned. Until then, and for good when
/// the hook returned its input, a subscription starts through `fallback`, compiled once, unspecialised: only a hook
/// that subscribes to its input while it runs, or keeps it and subscribes later, gets there.
@usableFromInline
final class TransformInput<Source, Element>: Observable<Element>, @unchecked Sendable { // `start`, `settled` and `subscribedEarly` are guarded by `lock`; the rest is immutable
    @usableFromInline let source: Source
    /// The pipeline's.
    @usableFromInline let lock: Lock
    @usableFromInline let fallback: (Source, AnyObserver<Element>) -> Disposable
    @usableFromInline @exclusivity(unchecked) var start: ((Source, AnyObserver<Element>) -> Disposable)?
    /// Whether the hook has returned.
    @usableFromInline @exclusivity(unchecked) var settled = false
    /// Whether something subscribed before the hook returned.
    @usableFromInline @exclusivity(unchecked) var subscribedEarly = false

    /// See `TransformReturn`.
    @inlinable override var kind: ObservableKind { .transformInput }

    /// Compiled once, and never inlined: inlined, the object's initialisation marks the new input so that the
    /// optimiser no longer sees its class where `wire` tests what the hook returned (see `TransformReturn`).
    @usableFromInline
    init(_ source: Source, lock: Lock, fallback: @escaping (Source, AnyObserver<Element>) -> Disposable) {
        self.source = source
        self.lock = lock
        self.fallback = fallback
        super.init()
    }

    /// Called once, when the hook has returned, with the start for later subscriptions (`nil`: `fallback`). Returns
    /// whether something subscribed while the hook ran.
    @inlinable
    func settle(start: ((Source, AnyObserver<Element>) -> Disposable)?) -> Bool {
        lock.withLock {
            self.start = start
            settled = true
            return subscribedEarly
        }
    }

    @usableFromInline
    override func run(_ observer: AnyObserver<Element>) -> Disposable {
        let start = lock.withLock { () -> ((Source, AnyObserver<Element>) -> Disposable)? in
            if !settled { subscribedEarly = true }
            return self.start
        }
        return (start ?? fallback)(source, observer)
    }
}
