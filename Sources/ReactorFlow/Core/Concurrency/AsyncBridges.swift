extension Observable {
    /// Runs `operation` in a `Task` per subscription and emits its result, then completes; a thrown error becomes an
    /// error event. Disposing the subscription cancels the task.
    ///
    /// ```swift
    /// Observable.fromAsync { try await api.fetchUser(id: 7) }
    /// ```
    public static func fromAsync(
        priority: TaskPriority? = nil,
        _ operation: @escaping @Sendable () async throws -> Element
    ) -> Observable<Element> {
        fromAsync(detached: false, priority: priority, operation)
    }

    /// `fromAsync(priority:_:)`, its task detached from the subscriber's actor if `detached`.
    static func fromAsync(detached: Bool, priority: TaskPriority?,
                          _ operation: @escaping @Sendable () async throws -> Element) -> Observable<Element> {
        make { sink in
            let run: @Sendable () async -> Void = {
                do {
                    let element = try await operation()
                    sink.onNext(element)
                    sink.onCompleted()
                } catch {
                    sink.onError(error)
                }
            }
            let task = detached ? Task.detached(priority: priority, operation: run) : Task(priority: priority, operation: run)
            return Disposables.create { task.cancel() }
        }
    }

    /// Iterates `sequence` in a detached `Task` per subscription, so the subscribing thread is never blocked,
    /// emitting each element; disposing cancels the task. A `CancellationError` ends the stream with `completed`, as
    /// in RxSwift; any other error fails it.
    ///
    /// ```swift
    /// Observable.from(asyncSequence: NotificationCenter.default.notifications(named: .didLogin))
    /// ```
    public static func from<S: AsyncSequence & Sendable>(asyncSequence sequence: S, priority: TaskPriority? = nil) -> Observable<Element> where S.Element == Element {
        make { sink in
            let task = Task.detached(priority: priority) {
                do {
                    for try await element in sequence {
                        if sink.isDisposed { break }
                        sink.onNext(element)
                    }
                    sink.onCompleted()
                } catch is CancellationError {
                    sink.onCompleted()
                } catch {
                    sink.onError(error)
                }
            }
            return Disposables.create { task.cancel() }
        }
    }
}

extension AsyncSequence where Self: Sendable {
    /// This sequence as an `Observable`: `Observable.from(asyncSequence:priority:)`.
    public func asObservable(priority: TaskPriority? = nil) -> Observable<Element> {
        Observable.from(asyncSequence: self, priority: priority)
    }
}

extension Infallible where Element: Sendable {
    /// The elements as an `AsyncStream`: it finishes when the stream completes, and cancelling the consuming task
    /// disposes the subscription.
    ///
    /// ```swift
    /// for await name in names.values { print(name) }
    /// ```
    public var values: AsyncStream<Element> {
        AsyncStream { continuation in
            let observer = AnyObserver<Element> { event in
                switch event {
                case .next(let element): continuation.yield(element)
                case .completed: continuation.finish()
                case .error(let error): // an Infallible that fails breaks its promise: reported, and the stream ends
                    Diagnostics.report(.unhandledError, error: error, message: "an Infallible failed")
                    continuation.finish()
                }
            }
            let sink = Sink(observer)
            continuation.onTermination = { _ in sink.dispose() }
            sink.attach(upstream: source.subscribeInside(sink))
        }
    }
}

extension SharedSequence where Element: Sendable {
    /// The elements as an `AsyncStream`, read on the main actor as RxCocoa has it: it finishes when the sequence
    /// completes, and cancelling the consuming task disposes the subscription.
    @MainActor public var values: AsyncStream<Element> {
        asInfallible().values
    }
}

extension ObservableType where Element: Sendable {
    /// The stream as an `AsyncThrowingStream`: it ends when the stream ends (throwing its error), and cancelling the
    /// consuming task disposes the subscription.
    ///
    /// ```swift
    /// for try await state in reactor.state.values { print(state) }
    /// ```
    public var values: AsyncThrowingStream<Element, any Error> {
        AsyncThrowingStream { continuation in
            let observer = AnyObserver<Element> { event in
                switch event {
                case .next(let element): continuation.yield(element)
                case .error(let error): continuation.finish(throwing: error)
                case .completed: continuation.finish()
                }
            }
            let sink = Sink(observer)
            continuation.onTermination = { termination in
                sink.dispose()
                // As in RxSwift, a reading task that is cancelled before the stream ends gets a `CancellationError`.
                if case .cancelled = termination { continuation.finish(throwing: CancellationError()) }
            }
            sink.attach(upstream: subscribeInside(sink))
        }
    }
}
