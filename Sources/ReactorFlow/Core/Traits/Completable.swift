/// What a `Completable` ends with: an error, or completion.
public enum CompletableEvent {
    /// The work failed.
    case error(any Error)
    /// The work is done.
    case completed
}

extension PrimitiveSequenceType where Trait == CompletableTrait, Element == Never {
    /// The callback a `Completable.create` closure reports its end to.
    public typealias CompletableObserver = (CompletableEvent) -> Void

    /// A `Completable` whose every subscription runs `subscribe`; the first end it reports counts.
    ///
    /// ```swift
    /// let save = Completable.create { observer in
    ///     store.write(token) { error in observer(error.map { .error($0) } ?? .completed) }
    ///     return Disposables.create()
    /// }
    /// ```
    public static func create(subscribe: @escaping (@escaping CompletableObserver) -> Disposable) -> Completable {
        Completable(raw: Observable.create { observer in
            subscribe { event in
                switch event {
                case .error(let error): observer.onError(error)
                case .completed: observer.onCompleted()
                }
            }
        })
    }

    /// Completes at once.
    public static func empty() -> Completable {
        Completable(raw: .empty())
    }

    /// Calls `observer` once, with completion or the error.
    public func subscribe(_ observer: @escaping CompletableObserver) -> Disposable {
        subscribeToFirstEvent { event in
            switch event {
            case .next: Diagnostics.report(.traitViolation, message: "a Completable sent an element")
            case .error(let error): observer(.error(error))
            case .completed: observer(.completed)
            }
        }
    }

    /// Calls `onCompleted` or `onError`, then `onDisposed` when the subscription ends. An error with no `onError`
    /// is reported through `Diagnostics`.
    public func subscribe(onCompleted: (() -> Void)? = nil, onError: ((any Error) -> Void)? = nil,
                          onDisposed: (() -> Void)? = nil) -> Disposable {
        subscribe(onDisposed: onDisposed) { ended in
            subscribe { event in
                defer { ended.dispose() }
                switch event {
                case .completed: onCompleted?()
                case .error(let error):
                    if let onError { onError(error) } else { Diagnostics.report(.unhandledError, error: error, message: "a Completable failed and nobody handled it") }
                }
            }
        }
    }

    /// `subscribe(onCompleted:onError:onDisposed:)` with `object` passed to each closure while it lives.
    public func subscribe<Object: AnyObject>(with object: Object, onCompleted: ((Object) -> Void)? = nil,
                                             onError: ((Object, any Error) -> Void)? = nil,
                                             onDisposed: ((Object) -> Void)? = nil) -> Disposable {
        subscribe(onCompleted: { [weak object] in object.map { onCompleted?($0) } },
                  onError: { [weak object] error in object.map { onError?($0, error) } },
                  onDisposed: { [weak object] in object.map { onDisposed?($0) } })
    }

    /// Returns once the `Completable` completed; throws its error.
    public var value: Void {
        get async throws {
            for try await _ in primitiveSequence.source.values {}
        }
    }

    /// Then `second`: its element is the result; an error of either fails it.
    public func andThen<Result>(_ second: Single<Result>) -> Single<Result> {
        Single(raw: primitiveSequence.source.asResult().concat(second.source))
    }

    /// Then `second`.
    public func andThen<Result>(_ second: Maybe<Result>) -> Maybe<Result> {
        Maybe(raw: primitiveSequence.source.asResult().concat(second.source))
    }

    /// Then `second`.
    public func andThen(_ second: Completable) -> Completable {
        Completable(raw: primitiveSequence.source.concat(second.source))
    }

    /// Then `second`'s elements.
    public func andThen<Result>(_ second: Observable<Result>) -> Observable<Result> {
        primitiveSequence.source.asResult().concat(second)
    }

    /// Runs side effects at each step, without changing the end.
    public func `do`(onError: ((any Error) throws -> Void)? = nil, afterError: ((any Error) throws -> Void)? = nil,
                     onCompleted: (() throws -> Void)? = nil, afterCompleted: (() throws -> Void)? = nil,
                     onSubscribe: (() -> Void)? = nil, onSubscribed: (() -> Void)? = nil,
                     onDispose: (() -> Void)? = nil) -> Completable {
        Completable(raw: primitiveSequence.source.do(onError: onError, afterError: afterError, onCompleted: onCompleted,
                                                     afterCompleted: afterCompleted, onSubscribe: onSubscribe,
                                                     onSubscribed: onSubscribed, onDispose: onDispose))
    }

    /// Completes once this and then `second` have completed; the first error fails it.
    ///
    /// ```swift
    /// cache.clear().concat(store.reset())
    /// ```
    public func concat(_ second: Completable) -> Completable {
        Completable.concat([primitiveSequence, second])
    }

    /// Completes when every one of `completables`, run one after another, has completed.
    public static func concat<Completables: Sequence>(_ completables: Completables) -> Completable where Completables.Element == Completable {
        Completable(raw: Observable.concat(Array(completables.map(\.source))))
    }

    /// Completes when every one of `completables`, run one after another, has completed.
    public static func concat(_ completables: Completable...) -> Completable {
        concat(completables)
    }

    /// Completes when every one of `completables`, run at once, has completed; the first error fails it.
    public static func zip<Completables: Collection>(_ completables: Completables) -> Completable where Completables.Element == Completable {
        Completable(raw: Observable.merge(completables.map(\.source)))
    }

    /// Completes when every one of `completables`, run at once, has completed; the first error fails it.
    public static func zip(_ completables: Completable...) -> Completable {
        zip(completables)
    }

    /// `zip(_:)`: every one at once.
    public static func merge(_ completables: Completable...) -> Completable {
        zip(completables)
    }

    /// `zip(_:)`: every one at once.
    public static func merge<Completables: Collection>(_ completables: Completables) -> Completable
        where Completables.Element == Completable {
        zip(completables)
    }
}

extension Observable where Element == Never {
    /// The same end, as a stream of another element type (it has no element to convert).
    func asResult<Result>() -> Observable<Result> {
        .make { sink in
            self.subscribeInside(AnyObserver<Never> { event in
                switch event {
                case .error(let error): sink.onError(error)
                case .completed: sink.onCompleted()
                }
            })
        }
    }
}
