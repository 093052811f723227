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

    init(source: Observable<Element>, replay: Int, scope: SubjectLifetimeScope) {
        self.source = source
        self.replay = replay
        self.scope = scope
        super.init()
    }

    override func run(_ observer: AnyObserver<Element>) -> Disposable {
        lock.lock()
        let connect = state.subscribed()
        let subject = self.subject ?? SubjectCore<Element>(bufferSize: replay)
        self.subject = subject
        let connection = connect ? SingleAssignmentDisposable() : nil
        if let connection { self.connection = connection }
        lock.unlock()

        // A sink, so that the terminal event also ends this subscription and releases its share of the connection.
        let sink = Sink(observer)
        let subscription = subject.subscribe(AnyObserver(sink))
        sink.attach(upstream: Disposables.create { [self] in
            subscription.dispose()
            lock.lock()
            let disconnect = state.unsubscribed()
            var ending: SingleAssignmentDisposable?
            if disconnect {
                ending = self.connection
                self.connection = nil
                if scope == .whileConnected { self.subject = nil }
            }
            lock.unlock()
            ending?.dispose()
        })
        connection?.setDisposable(source.subscribeInside(AnyObserver(eventHandler: subject.on)))
        return sink
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
    public func refCount() -> Observable<Element> {
        let state = LockedValue((machine: RefCountStateMachine(), connection: Disposable?.none))
        return Observable.make { [self] sink in
            let subscription = subscribe(sink)
            let connect = state.withLock { $0.machine.subscribed() }
            if connect {
                let connection = self.connect()
                state.withLock { $0.connection = connection }
            }
            return Disposables.create {
                subscription.dispose()
                let ending = state.withLock { state -> Disposable? in
                    guard state.machine.unsubscribed() else { return nil }
                    defer { state.connection = nil }
                    return state.connection
                }
                ending?.dispose()
            }
        }
    }

    override func run(_ observer: AnyObserver<Element>) -> Disposable { subject.subscribe(observer) }
}
