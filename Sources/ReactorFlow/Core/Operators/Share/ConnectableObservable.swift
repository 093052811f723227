/// A stream that multicasts its source to its subscribers through a subject, once `connect()` is called
/// (`publish()`, `replay(_:)`, `multicast`). See `README.md` beside this file.
///
/// As in RxSwift, each connection has its subject: the subject is made when the first subscriber or `connect()`
/// needs it, and let go when the connection ends, so subscribers that arrive after that wait for the next
/// `connect()` (`multicast(_:)` reuses its one subject).
///
/// ```swift
/// let shared = source.publish()
/// shared.subscribe(onNext: { print($0) })
/// let connection = shared.connect() // starts the source
/// ```
public final class ConnectableObservable<Element>: Observable<Element>, ConnectableObservableType,
    @unchecked Sendable { // `subject` and `connection` are guarded by `lock`
    private let lock = Lock.make()
    private let makeSubject: () -> MulticastSubject<Element>
    private var subject: MulticastSubject<Element>?
    private var connection: MulticastConnection<Element>?

    init(makeSubject: @escaping () -> MulticastSubject<Element>) {
        self.makeSubject = makeSubject
        super.init()
    }

    /// Subscribes the source, once; calling it again while connected returns the same connection.
    /// Disposing the connection stops the source and lets its subject go; a later `connect()` subscribes the source
    /// again, into a new subject. The source's terminal event ends the connection before it reaches the subject.
    public func connect() -> Disposable {
        while true {
            _ = currentSubject()
            lock.lock()
            if let connection {
                lock.unlock()
                return connection
            }
            // A connection that ended since then let the subject go: this one makes a new subject.
            guard let subject else {
                lock.unlock()
                continue
            }
            let connection = MulticastConnection(parent: self)
            self.connection = connection
            lock.unlock()
            connection.start(subject)
            return connection
        }
    }

    /// The current connection's subject, made if there is none. `makeSubject` runs outside the lock: it is the
    /// caller's code.
    private func currentSubject() -> MulticastSubject<Element> {
        if let subject = lock.withLock({ subject }) { return subject }
        let made = makeSubject()
        return lock.withLock {
            if let subject { return subject }
            subject = made
            return made
        }
    }

    /// Called by `connection` as it ends: if it is still the current one, the next connection starts afresh.
    fileprivate func connectionEnded(_ connection: MulticastConnection<Element>) {
        let subject = lock.withLock { () -> MulticastSubject<Element>? in
            guard self.connection === connection else { return nil }
            self.connection = nil
            return exchange(&self.subject, with: nil)
        }
        _ = subject // the subject dies here, outside the lock (B12)
    }

    override func run(_ observer: AnyObserver<Element>) -> Disposable { currentSubject().subscribe(observer) }
}

/// One connection of a `ConnectableObservable`: the source's subscription, feeding the connection's subject.
// `parent` and `subscription` are guarded by `lock`; `ended` is atomic.
final class MulticastConnection<Element>: Disposable, @unchecked Sendable {
    private let lock = Lock.make()
    private var parent: ConnectableObservable<Element>?
    private var subscription: SingleAssignmentDisposable? = SingleAssignmentDisposable()
    /// Set once the connection is disposed or its source ended: later events are dropped.
    private let ended = AtomicWord() // 1 once ended

    init(parent: ConnectableObservable<Element>) {
        self.parent = parent
    }

    func start(_ subject: MulticastSubject<Element>) {
        let subscription = lock.withLock { self.subscription }
        subscription?.setDisposable(subject.feed { [self] isStopEvent in admit(isStopEvent) })
    }

    /// Whether an event of the source goes on to the subject: none once the connection has ended, and a terminal
    /// one ends it first, as in RxSwift.
    private func admit(_ isStopEvent: Bool) -> Bool {
        if ended.loadAcquiring() == 1 { return false }
        if isStopEvent { dispose() }
        return true
    }

    func dispose() {
        ended.storeReleasing(1)
        let (parent, subscription) = lock.withLock {
            (exchange(&self.parent, with: nil), exchange(&self.subscription, with: nil))
        }
        parent?.connectionEnded(self)
        subscription?.dispose()
    }
}
