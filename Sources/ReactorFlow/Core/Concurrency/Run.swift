extension Observable {
    /// A stream written with `async`/`await`: `operation` runs in a `Task` per subscription and emits through
    /// `send`; the stream completes when `operation` returns and fails with what it throws. Disposing the
    /// subscription cancels the task.
    ///
    /// ```swift
    /// func mutate(action: Action) -> Observable<Mutation> {
    ///     .run { send in
    ///         send(.setLoading(true))
    ///         let user = try await api.login()
    ///         send(.setUser(user))
    ///         send(.setLoading(false))
    ///     }
    /// }
    /// ```
    public static func run(
        priority: TaskPriority? = nil,
        _ operation: @escaping @Sendable (_ send: Send<Element>) async throws -> Void
    ) -> Observable<Element> {
        make { sink in
            let task = Task(priority: priority) {
                do {
                    try await operation(Send(sink: sink))
                    sink.onCompleted()
                } catch {
                    sink.onError(error)
                }
            }
            return Disposables.create { task.cancel() }
        }
    }
}

/// Emits elements from an `Observable.run` operation. After the subscription ends, sending does nothing.
public struct Send<Element>: Sendable {
    let sink: Sink<Element>

    /// Emits `element`.
    public func callAsFunction(_ element: Element) {
        sink.onNext(element)
    }

    /// Whether the subscription has ended (the task is being cancelled too).
    public var isFinished: Bool { sink.isDisposed }
}
