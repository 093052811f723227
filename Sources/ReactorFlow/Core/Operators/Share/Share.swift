/// How long a shared stream keeps its replay buffer.
public enum SubjectLifetimeScope: Sendable {
    /// A new buffer for each connection: after everyone leaves (or the source ends), the next subscriber starts over.
    case whileConnected
    /// One buffer forever: later subscribers get its replay (and the terminal event, once the source ended).
    case forever
}

extension ObservableType {
    /// Shares one subscription to this stream among all subscribers, replaying the latest `replay` elements to each
    /// new one. See `README.md` beside this file.
    ///
    /// ```swift
    /// let user = api.currentUser().share(replay: 1)
    /// ```
    public func share(replay: Int = 0, scope: SubjectLifetimeScope = .whileConnected) -> Observable<Element> {
        ShareObservable(source: asObservable(), replay: max(0, replay), scope: scope)
    }

    /// A connectable stream that replays the latest `bufferSize` elements; nothing flows until `connect()`.
    ///
    /// ```swift
    /// let shared = source.replay(1)
    /// let connection = shared.connect()
    /// ```
    public func replay(_ bufferSize: Int) -> ConnectableObservable<Element> {
        ConnectableObservable(source: asObservable(), bufferSize: max(0, bufferSize))
    }

    /// A connectable stream that replays nothing; nothing flows until `connect()`.
    public func publish() -> ConnectableObservable<Element> {
        ConnectableObservable(source: asObservable(), bufferSize: 0)
    }
}

final class ShareObservable<Element>: Observable<Element>, @unchecked Sendable { // mutable state is guarded by `lock`
    private let lock = Lock.make()
    private let source: Observable<Element>
    private let replay: Int
    private let scope: SubjectLifetimeScope
    private var state = RefCountStateMachine()
    private var subject: SubjectCore<Element>?
    private var connection: SingleAssignmentDisposable?
    /// Counts connections: a subscriber counted in one that has ended does not count in the next.
    private var generation: UInt64 = 0

    init(source: Observable<Element>, replay: Int, scope: SubjectLifetimeScope) {
        self.source = source
        self.replay = replay
        self.scope = scope
        super.init()
    }

    override func run(_ observer: AnyObserver<Element>) -> Disposable {
        let subject = lock.withLock { () -> SubjectCore<Element> in
            let subject = self.subject ?? SubjectCore<Element>(bufferSize: replay)
            self.subject = subject
            return subject
        }
        // A sink, so that the terminal event also ends this subscription and releases its share of the connection.
        let sink = Sink(observer)
        let subscription = subject.subscribe(AnyObserver(sink))
        // Ended at once by a subject whose source has ended (`.forever`): it takes no part in any connection.
        if sink.isDisposed { return subscription }
        lock.lock()
        let generation = self.generation
        let connection = state.subscribed() ? SingleAssignmentDisposable() : nil
        if let connection { self.connection = connection }
        lock.unlock()
        sink.attach(upstream: Disposables.create { [self] in
            subscription.dispose()
            leave(generation)
        })
        connection?.setDisposable(source.subscribeInside(AnyObserver { [self] event in
            // The connection ends before the event is delivered, as in RxSwift: a subscriber that arrives meanwhile
            // (from a terminal event's handler, say) starts a new one, with a new buffer unless the scope is `.forever`.
            let ended = event.isStopEvent ? endConnection(generation) : nil
            subject.on(event)
            ended?.dispose()
        }))
        return sink
    }

    /// A subscriber counted in connection number `generation` left: the last one to leave disconnects the source.
    private func leave(_ generation: UInt64) {
        let ending = lock.withLock { () -> SingleAssignmentDisposable? in
            guard generation == self.generation, state.unsubscribed() else { return nil }
            if scope == .whileConnected { subject = nil }
            return exchange(&connection, with: nil)
        }
        ending?.dispose()
    }

    /// The source of connection number `generation` ended: the next subscriber starts a new connection. Returns the
    /// connection, for the caller to dispose once the event is delivered.
    private func endConnection(_ generation: UInt64) -> SingleAssignmentDisposable? {
        lock.withLock {
            guard generation == self.generation else { return nil }
            self.generation &+= 1
            state = RefCountStateMachine()
            if scope == .whileConnected { subject = nil }
            return exchange(&connection, with: nil)
        }
    }
}

/// A stream that multicasts its source to its subscribers once `connect()` is called.
///
/// ```swift
/// let shared = source.publish()
/// shared.subscribe(onNext: { print($0) })
/// let connection = shared.connect() // starts the source
/// ```
public final class ConnectableObservable<Element>: Observable<Element>, @unchecked Sendable { // `connection` is guarded by `lock`
    private let lock = Lock.make()
    private let source: Observable<Element>
    private let subject: SubjectCore<Element>
    private var connection: SingleAssignmentDisposable?

    init(source: Observable<Element>, bufferSize: Int) {
        self.source = source
        self.subject = SubjectCore(bufferSize: bufferSize)
        super.init()
    }

    /// Subscribes the source, once; calling it again while connected returns the same connection.
    /// Disposing the connection stops the source; a later `connect()` subscribes it again.
    public func connect() -> Disposable {
        lock.lock()
        if let connection {
            lock.unlock()
            return connection
        }
        let connection = SingleAssignmentDisposable()
        self.connection = connection
        lock.unlock()
        connection.setDisposable(source.subscribeInside(AnyObserver(eventHandler: subject.on)))
        return Disposables.create { [self] in
            lock.withLock { if self.connection === connection { self.connection = nil } }
            connection.dispose()
        }
    }

    /// Connects when the first subscriber arrives and disconnects when the last one leaves.
    ///
    /// As in RxSwift, a subscriber that the subject ends at once (the source has ended) connects nothing, and the
    /// source's terminal event ends the connection before it is delivered.
    public func refCount() -> Observable<Element> {
        let state = LockedValue((machine: RefCountStateMachine(), connection: Disposable?.none, generation: UInt64(0)))
        return Observable.make { [self] sink in
            var generation = UInt64(0)
            let subscription = subscribe(AnyObserver<Element> { event in
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

    override func run(_ observer: AnyObserver<Element>) -> Disposable { subject.subscribe(observer) }
}
