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
        // Taking the connection's subject and counting this subscriber in that connection happen in one critical
        // section: were the last subscriber to leave in between, this one would start a new connection while joined
        // to the old one's subject, which nothing feeds any more, and the subscribers after it would wait forever.
        lock.lock()
        let subject = self.subject ?? SubjectCore<Element>(bufferSize: replay)
        self.subject = subject
        let generation = self.generation
        let connection = state.subscribed() ? SingleAssignmentDisposable() : nil
        if let connection { self.connection = connection }
        lock.unlock()
        // A sink, so that the terminal event also ends this subscription and releases its share of the connection.
        let sink = Sink(observer)
        let subscription = subject.subscribe(AnyObserver(sink))
        sink.attach(upstream: Disposables.create { [self] in
            subscription.dispose()
            leave(generation)
        })
        // Ended at once by a subject whose source has ended (`.forever`): attaching has already made it leave, which
        // disposed the connection it would have started.
        if sink.isDisposed { return sink }
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
