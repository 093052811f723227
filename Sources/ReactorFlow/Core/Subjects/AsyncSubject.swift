/// Delivers only the last element sent to it, and only once it completes (then `completed`); if it fails, the error
/// goes out alone. A subscriber that comes after the end gets the same at once.
///
/// ```swift
/// let result = AsyncSubject<Int>()
/// result.subscribe(onNext: { print($0) }).disposed(by: bag)
/// result.onNext(1)
/// result.onNext(2)     // nothing yet
/// result.onCompleted() // prints 2; the subscriber then completes
/// ```
public final class AsyncSubject<Element>: Observable<Element>, ObserverType, @unchecked Sendable { // `last` and `ended` are guarded by the core's lock, like the rest of its state
    @inlinable @inline(__always) var core: SubjectCore<Element> { subjectCore.unsafelyUnwrapped }
    deinit { core.releaseBecauseOwnerDied() } // see `Observable.init(subjectCore:)`

    /// The element the subject will deliver if it completes. Guarded by the core's lock, which is never held while
    /// this class calls the core.
    private var last: Element?
    private var ended = false

    /// Creates a subject with no observers. Its core replays its one element, and its end, to late subscribers; the
    /// element reaches the core only when the subject completes.
    public override init() { super.init(subjectCore: SubjectCore(bufferSize: 1)) }

    /// Whether anyone is subscribed.
    public var hasObservers: Bool { core.hasObservers }

    /// Keeps an element as the last one, or ends the subject: on `.completed`, every subscriber gets the last element
    /// (if there was one) and then `.completed`; on `.error`, the error alone. After the end, events are ignored.
    public func on(_ event: Event<Element>) {
        let lock = core.lock
        lock.lock()
        if ended {
            lock.unlock()
            return
        }
        guard case .next(let element) = event else {
            ended = true
            let last = exchange(&self.last, with: nil)
            lock.unlock()
            if event.isCompleted, let last { core.onNext(last) }
            core.on(event)
            return
        }
        // The element it replaces may hold the last reference to the user's objects: it dies after the lock (B12).
        let replaced = exchange(&last, with: element)
        lock.unlock()
        _ = consume replaced
    }
}
