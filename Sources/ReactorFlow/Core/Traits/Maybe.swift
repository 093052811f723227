/// What a `Maybe` ends with: its element, an error, or completion without an element.
public enum MaybeEvent<Element> {
    /// The one element; the `Maybe` is done.
    case success(Element)
    /// The `Maybe` failed.
    case error(any Error)
    /// The `Maybe` completed without an element.
    case completed
}

extension PrimitiveSequenceType where Trait == MaybeTrait {
    /// The callback a `Maybe.create` closure reports its result to.
    public typealias MaybeObserver = (MaybeEvent<Element>) -> Void

    /// A `Maybe` whose every subscription runs `subscribe`; the first result it reports counts.
    ///
    /// ```swift
    /// let cached = Maybe<User>.create { observer in
    ///     if let user = cache.user { observer(.success(user)) } else { observer(.completed) }
    ///     return Disposables.create()
    /// }
    /// ```
    public static func create(subscribe: @escaping (@escaping MaybeObserver) -> Disposable) -> Maybe<Element> {
        Maybe(raw: Observable.create { observer in
            subscribe { event in
                switch event {
                case .success(let element):
                    observer.onNext(element)
                    observer.onCompleted()
                case .error(let error):
                    observer.onError(error)
                case .completed:
                    observer.onCompleted()
                }
            }
        })
    }

    /// Succeeds with `element` at once.
    public static func just(_ element: Element) -> Maybe<Element> {
        Maybe(raw: .just(element))
    }

    /// Succeeds with `element`, delivered on `scheduler`.
    public static func just(_ element: Element, scheduler: ImmediateSchedulerType) -> Maybe<Element> {
        Maybe(raw: Observable.just(element).subscribe(on: scheduler))
    }

    /// Completes at once, without an element.
    public static func empty() -> Maybe<Element> {
        Maybe(raw: .empty())
    }

    /// Calls `observer` once: with the element, the error, or completion.
    public func subscribe(_ observer: @escaping MaybeObserver) -> Disposable {
        subscribeToFirstEvent { event in
            switch event {
            case .next(let element): observer(.success(element))
            case .error(let error): observer(.error(error))
            case .completed: observer(.completed)
            }
        }
    }

    /// Calls one of `onSuccess`, `onError` or `onCompleted`, then `onDisposed` when the subscription ends. An error
    /// with no `onError` is reported through `Diagnostics`.
    public func subscribe(onSuccess: ((Element) -> Void)? = nil, onError: ((any Error) -> Void)? = nil,
                          onCompleted: (() -> Void)? = nil, onDisposed: (() -> Void)? = nil) -> Disposable {
        subscribe(onDisposed: onDisposed) { ended in
            subscribe { event in
                defer { ended.dispose() }
                switch event {
                case .success(let element): onSuccess?(element)
                case .error(let error):
                    if let onError { onError(error) } else { Diagnostics.report(.unhandledError, error: error, message: "a Maybe failed and nobody handled it") }
                case .completed: onCompleted?()
                }
            }
        }
    }

    /// `subscribe(onSuccess:onError:onCompleted:onDisposed:)` with `object` passed to each closure while it lives.
    public func subscribe<Object: AnyObject>(with object: Object, onSuccess: ((Object, Element) -> Void)? = nil,
                                             onError: ((Object, any Error) -> Void)? = nil,
                                             onCompleted: ((Object) -> Void)? = nil,
                                             onDisposed: ((Object) -> Void)? = nil) -> Disposable {
        subscribe(onSuccess: { [weak object] element in object.map { onSuccess?($0, element) } },
                  onError: { [weak object] error in object.map { onError?($0, error) } },
                  onCompleted: { [weak object] in object.map { onCompleted?($0) } },
                  onDisposed: { [weak object] in object.map { onDisposed?($0) } })
    }


    /// Transforms the element; a thrown error fails the `Maybe`.
    public func map<Result>(_ transform: @escaping (Element) throws -> Result) -> Maybe<Result> {
        Maybe(raw: primitiveSequence.source.map(transform))
    }

    /// Transforms the element, dropping it when `transform` returns `nil`.
    public func compactMap<Result>(_ transform: @escaping (Element) throws -> Result?) -> Maybe<Result> {
        Maybe(raw: primitiveSequence.source.compactMap(transform))
    }

    /// Keeps the element only if `predicate` holds.
    public func filter(_ predicate: @escaping (Element) throws -> Bool) -> Maybe<Element> {
        Maybe(raw: primitiveSequence.source.filter(predicate))
    }

    /// Continues with the `Maybe` made from the element.
    public func flatMap<Result>(_ selector: @escaping (Element) throws -> Maybe<Result>) -> Maybe<Result> {
        Maybe(raw: primitiveSequence.source.flatMap { try selector($0).source })
    }

    /// Succeeds with `default` when the `Maybe` completes without an element: a `Single`.
    public func ifEmpty(default: Element) -> Single<Element> {
        Single(raw: primitiveSequence.source.ifEmpty(default: `default`))
    }

    /// Continues with `other` when the `Maybe` completes without an element.
    public func ifEmpty(switchTo other: Maybe<Element>) -> Maybe<Element> {
        Maybe(raw: primitiveSequence.source.ifEmpty(switchTo: other.source))
    }

    /// Continues with `other` when the `Maybe` completes without an element: a `Single`.
    public func ifEmpty(switchTo other: Single<Element>) -> Single<Element> {
        Single(raw: primitiveSequence.source.ifEmpty(switchTo: other.source))
    }

    /// On an error, succeeds with `element` instead.
    public func catchAndReturn(_ element: Element) -> Maybe<Element> {
        Maybe(raw: primitiveSequence.source.catchAndReturn(element))
    }

    /// RxSwift 5's name for `catchAndReturn(_:)`.
    @available(*, deprecated, renamed: "catchAndReturn(_:)")
    public func catchErrorJustReturn(_ element: Element) -> Maybe<Element> {
        catchAndReturn(element)
    }

    /// Runs side effects at each step, without changing the result.
    public func `do`(onNext: ((Element) throws -> Void)? = nil, afterNext: ((Element) throws -> Void)? = nil,
                     onError: ((any Error) throws -> Void)? = nil, afterError: ((any Error) throws -> Void)? = nil,
                     onCompleted: (() throws -> Void)? = nil, afterCompleted: (() throws -> Void)? = nil,
                     onSubscribe: (() -> Void)? = nil, onSubscribed: (() -> Void)? = nil,
                     onDispose: (() -> Void)? = nil) -> Maybe<Element> {
        Maybe(raw: primitiveSequence.source.do(onNext: onNext, afterNext: afterNext, onError: onError, afterError: afterError,
                                               onCompleted: onCompleted, afterCompleted: afterCompleted,
                                               onSubscribe: onSubscribe, onSubscribed: onSubscribed, onDispose: onDispose))
    }

    /// The same end, without the element, as a `Completable`.
    public func asCompletable() -> Completable {
        Completable(raw: primitiveSequence.source.ignoreElements())
    }
}

extension PrimitiveSequenceType where Trait == MaybeTrait, Element: Sendable {
    /// The element, or `nil` if the `Maybe` completed without one, awaited.
    public var value: Element? {
        get async throws {
            for try await element in primitiveSequence.source.values { return element }
            return nil
        }
    }
}
