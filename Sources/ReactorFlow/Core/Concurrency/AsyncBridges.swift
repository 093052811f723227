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
        make { sink in
            let task = Task(priority: priority) {
                do {
                    let element = try await operation()
                    sink.onNext(element)
                    sink.onCompleted()
                } catch {
                    sink.onError(error)
                }
            }
            return Disposables.create { task.cancel() }
        }
    }

    /// Iterates `sequence` in a `Task` per subscription, emitting each element; disposing cancels the task.
    ///
    /// ```swift
    /// Observable.from(asyncSequence: NotificationCenter.default.notifications(named: .didLogin))
    /// ```
    public static func from<S: AsyncSequence & Sendable>(asyncSequence sequence: S, priority: TaskPriority? = nil) -> Observable<Element> where S.Element == Element {
        make { sink in
            let task = Task(priority: priority) {
                do {
                    for try await element in sequence {
                        if sink.isDisposed { break }
                        sink.onNext(element)
                    }
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
    /// This sequence as an `Observable` (one iterating `Task` per subscription, cancelled on dispose).
    public func asObservable() -> Observable<Element> {
        Observable.from(asyncSequence: self)
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
            continuation.onTermination = { _ in sink.dispose() }
            sink.attach(upstream: subscribeInside(sink))
        }
    }
}
