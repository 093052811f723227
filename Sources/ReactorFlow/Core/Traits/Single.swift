/// What a `Single` ends with: its element, or an error.
public typealias SingleEvent<Element> = Result<Element, any Error>

extension Diagnostic.Kind {
    /// A trait's stream broke the trait's promise (a `Single` completed without an element, a `Completable` was
    /// given an element through a raw stream); the event is dropped.
    public static let traitViolation = Diagnostic.Kind(rawValue: "traitViolation")
}

extension PrimitiveSequenceType where Trait == SingleTrait {
    /// The callback a `Single.create` closure reports its result to.
    public typealias SingleObserver = (SingleEvent<Element>) -> Void

    /// A `Single` whose every subscription runs `subscribe`; the first result it reports counts, the rest are
    /// dropped.
    ///
    /// ```swift
    /// let token = Single<String>.create { observer in
    ///     let task = api.fetchToken { result in observer(result) }
    ///     return Disposables.create { task.cancel() }
    /// }
    /// ```
    public static func create(subscribe: @escaping (@escaping SingleObserver) -> Disposable) -> Single<Element> {
        Single(raw: Observable.create { observer in
            subscribe { event in
                switch event {
                case .success(let element):
                    observer.onNext(element)
                    observer.onCompleted()
                case .failure(let error):
                    observer.onError(error)
                }
            }
        })
    }

    /// Succeeds with `element` at once.
    public static func just(_ element: Element) -> Single<Element> {
        Single(raw: .just(element))
    }

    /// Succeeds with `element`, delivered on `scheduler`.
    public static func just(_ element: Element, scheduler: ImmediateSchedulerType) -> Single<Element> {
        Single(raw: Observable.just(element).subscribe(on: scheduler))
    }

    /// Calls `observer` once, with the element or the error.
    public func subscribe(_ observer: @escaping SingleObserver) -> Disposable {
        subscribeToFirstEvent { event in
            switch event {
            case .next(let element): observer(.success(element))
            case .error(let error): observer(.failure(error))
            case .completed: Diagnostics.report(.traitViolation, message: "a Single completed without an element")
            }
        }
    }

    /// Calls `onSuccess` with the element or `onFailure` with the error, then `onDisposed` when the subscription
    /// ends. An error with no `onFailure` is reported through `Diagnostics`.
    ///
    /// ```swift
    /// service.login(email, password)
    ///     .subscribe(onSuccess: { show($0) }, onFailure: { show(error: $0) })
    ///     .disposed(by: disposeBag)
    /// ```
    public func subscribe(onSuccess: ((Element) -> Void)? = nil, onFailure: ((any Error) -> Void)? = nil,
                          onDisposed: (() -> Void)? = nil) -> Disposable {
        subscribe(onDisposed: onDisposed) { ended in
            subscribe { event in
                defer { ended.dispose() }
                switch event {
                case .success(let element): onSuccess?(element)
                case .failure(let error):
                    if let onFailure { onFailure(error) } else { Diagnostics.report(.unhandledError, error: error, message: "a Single failed and nobody handled it") }
                }
            }
        }
    }

    /// `subscribe(onSuccess:onFailure:onDisposed:)` with `object` passed to each closure while it lives; nothing is
    /// called once it is gone.
    public func subscribe<Object: AnyObject>(with object: Object, onSuccess: ((Object, Element) -> Void)? = nil,
                                             onFailure: ((Object, any Error) -> Void)? = nil,
                                             onDisposed: ((Object) -> Void)? = nil) -> Disposable {
        subscribe(onSuccess: { [weak object] element in object.map { onSuccess?($0, element) } },
                  onFailure: { [weak object] error in object.map { onFailure?($0, error) } },
                  onDisposed: { [weak object] in object.map { onDisposed?($0) } })
    }

    /// RxSwift 5's name for `subscribe(onSuccess:onFailure:onDisposed:)`.
    @available(*, deprecated, renamed: "subscribe(onSuccess:onFailure:onDisposed:)")
    public func subscribe(onSuccess: ((Element) -> Void)? = nil, onError: @escaping (any Error) -> Void,
                          onDisposed: (() -> Void)? = nil) -> Disposable {
        subscribe(onSuccess: onSuccess, onFailure: onError, onDisposed: onDisposed)
    }


    /// Transforms the element; a thrown error fails the `Single`.
    public func map<Result>(_ transform: @escaping (Element) throws -> Result) -> Single<Result> {
        Single(raw: primitiveSequence.source.map(transform))
    }

    /// Transforms the element, dropping it when `transform` returns `nil`: a `Maybe`.
    public func compactMap<Result>(_ transform: @escaping (Element) throws -> Result?) -> Maybe<Result> {
        Maybe(raw: primitiveSequence.source.compactMap(transform))
    }

    /// Continues with the `Single` made from the element.
    public func flatMap<Result>(_ selector: @escaping (Element) throws -> Single<Result>) -> Single<Result> {
        Single(raw: primitiveSequence.source.flatMap { try selector($0).source })
    }

    /// Continues with the `Maybe` made from the element.
    public func flatMapMaybe<Result>(_ selector: @escaping (Element) throws -> Maybe<Result>) -> Maybe<Result> {
        Maybe(raw: primitiveSequence.source.flatMap { try selector($0).source })
    }

    /// Continues with the `Completable` made from the element.
    public func flatMapCompletable(_ selector: @escaping (Element) throws -> Completable) -> Completable {
        Completable(raw: primitiveSequence.source.flatMap { try selector($0).source })
    }

    /// On an error, succeeds with `element` instead.
    public func catchAndReturn(_ element: Element) -> Single<Element> {
        Single(raw: primitiveSequence.source.catchAndReturn(element))
    }

    /// RxSwift 5's name for `catchAndReturn(_:)`.
    @available(*, deprecated, renamed: "catchAndReturn(_:)")
    public func catchErrorJustReturn(_ element: Element) -> Single<Element> {
        catchAndReturn(element)
    }

    /// Runs side effects at each step, without changing the result. A thrown error from `onSuccess` fails it.
    public func `do`(onSuccess: ((Element) throws -> Void)? = nil, afterSuccess: ((Element) throws -> Void)? = nil,
                     onError: ((any Error) throws -> Void)? = nil, afterError: ((any Error) throws -> Void)? = nil,
                     onSubscribe: (() -> Void)? = nil, onSubscribed: (() -> Void)? = nil,
                     onDispose: (() -> Void)? = nil) -> Single<Element> {
        Single(raw: primitiveSequence.source.do(onNext: onSuccess, afterNext: afterSuccess, onError: onError,
                                                afterError: afterError, onSubscribe: onSubscribe,
                                                onSubscribed: onSubscribed, onDispose: onDispose))
    }

    /// The same result, as a `Maybe`.
    public func asMaybe() -> Maybe<Element> {
        Maybe(raw: primitiveSequence.source)
    }

    /// The element if `predicate` holds for it, as a `Maybe` that otherwise completes empty.
    ///
    /// ```swift
    /// api.user(id: 1).filter(\.isActive) // Maybe<User>
    /// ```
    public func filter(_ predicate: @escaping (Element) throws -> Bool) -> Maybe<Element> {
        Maybe(raw: primitiveSequence.source.filter(predicate))
    }

    /// The same end, without the element, as a `Completable`.
    public func asCompletable() -> Completable {
        Completable(raw: primitiveSequence.source.ignoreElements())
    }

    /// Every element, in the order of `collection`, once all succeeded; the first error fails it. An empty
    /// collection succeeds with `[]`.
    public static func zip<Singles: Collection>(_ collection: Singles) -> Single<[Element]>
    where Singles.Element == Single<Element> {
        guard !collection.isEmpty else { return Single<[Element]>(raw: .just([])) }
        return Single<[Element]>(raw: Observable.zip(collection.map(\.source)))
    }

    /// Every element, in the order of `collection`, combined with `resultSelector` once all succeeded. An empty
    /// collection succeeds with `resultSelector([])`, called on each subscription.
    public static func zip<Singles: Collection, Result>(
        _ collection: Singles, resultSelector: @escaping ([Element]) throws -> Result
    ) -> Single<Result> where Singles.Element == Single<Element> {
        guard !collection.isEmpty else { return Single<Result>(raw: Observable.deferred { .just(try resultSelector([])) }) }
        return Single<Result>(raw: Observable.zip(collection.map(\.source), resultSelector: resultSelector))
    }
}

extension PrimitiveSequence where Trait == SingleTrait {
    /// A `Single` of what `work` returns (or throws), run in a `Task` per subscription (a detached one if
    /// `detached`); disposing cancels the task.
    ///
    /// ```swift
    /// let profile = Single.create { try await api.profile(id: 7) }
    /// ```
    @_disfavoredOverload
    public static func create(detached: Bool = false, priority: TaskPriority? = nil,
                              work: @escaping @Sendable () async throws -> Element) -> Single<Element> {
        Single(raw: Observable.fromAsync(detached: detached, priority: priority, work))
    }
}

extension PrimitiveSequenceType where Trait == SingleTrait, Element: Sendable {
    /// The element, awaited: `let user = try await service.user(id: 1).value`. Cancelling the task disposes the
    /// subscription and throws `CancellationError`.
    public var value: Element {
        get async throws {
            for try await element in primitiveSequence.source.values { return element }
            throw RxError.noElements
        }
    }
}
