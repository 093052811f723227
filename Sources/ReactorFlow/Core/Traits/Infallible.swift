/// An observable that never fails: it sends elements and at most a completion. Made from an `Observable` by saying
/// what replaces an error.
///
/// ```swift
/// let names: Infallible<String> = api.names().asInfallible(onErrorJustReturn: "")
/// names.subscribe(onNext: { label.text = $0 })
/// ```
public struct Infallible<Element>: ObservableConvertibleType {
    @usableFromInline let source: Observable<Element>

    /// Wraps `source`, which must never fail.
    @usableFromInline init(raw source: Observable<Element>) {
        self.source = source
    }

    /// The stream behind it, to use any `Observable` operator.
    public func asObservable() -> Observable<Element> { source }
}

/// Something that can be read as a stream that never fails; `Infallible` is one.
public protocol InfallibleType<Element>: ObservableConvertibleType {}

extension Infallible: InfallibleType {}

/// What `Infallible.create` closures send: an element or the completion.
public enum InfallibleEvent<Element> {
    /// An element.
    case next(Element)
    /// The end.
    case completed
}

extension ObservableConvertibleType {
    /// The stream, with an error replaced by `element` and completion.
    public func asInfallible(onErrorJustReturn element: Element) -> Infallible<Element> {
        Infallible(raw: asObservable().catchAndReturn(element))
    }

    /// The stream, continuing with `fallback` after an error.
    public func asInfallible(onErrorFallbackTo fallback: Infallible<Element>) -> Infallible<Element> {
        Infallible(raw: asObservable().catch { _ in fallback.source })
    }

    /// The stream, continuing with what `recover` makes from an error.
    public func asInfallible(onErrorRecover recover: @escaping (any Error) -> Infallible<Element>) -> Infallible<Element> {
        Infallible(raw: asObservable().catch { recover($0).source })
    }
}

extension Infallible {
    /// An `Infallible` whose every subscription runs `subscribe`.
    public static func create(subscribe: @escaping (@escaping (InfallibleEvent<Element>) -> Void) -> Disposable) -> Infallible<Element> {
        Infallible(raw: Observable.create { observer in
            subscribe { event in
                switch event {
                case .next(let element): observer.onNext(element)
                case .completed: observer.onCompleted()
                }
            }
        })
    }

    /// Sends `element`, then completes.
    public static func just(_ element: Element) -> Infallible<Element> { Infallible(raw: .just(element)) }
    /// Completes at once.
    public static func empty() -> Infallible<Element> { Infallible(raw: .empty()) }
    /// Never sends anything.
    public static func never() -> Infallible<Element> { Infallible(raw: .never()) }
    /// Sends `elements`, then completes.
    public static func of(_ elements: Element...) -> Infallible<Element> { Infallible(raw: .from(elements)) }
    /// Sends the elements of `sequence`, then completes.
    public static func from<S: Sequence>(_ sequence: S) -> Infallible<Element> where S.Element == Element { Infallible(raw: .from(sequence)) }
    /// Makes a fresh `Infallible` for each subscription (an error thrown by `factory` ends that subscription, as in
    /// RxSwift).
    public static func deferred(_ factory: @escaping () throws -> Infallible<Element>) -> Infallible<Element> {
        Infallible(raw: Observable.deferred { try factory().source })
    }

    /// Calls `onNext` for each element and `onCompleted` at the end, then `onDisposed` when the subscription ends.
    public func subscribe(onNext: ((Element) -> Void)? = nil, onCompleted: (() -> Void)? = nil,
                          onDisposed: (() -> Void)? = nil) -> Disposable {
        source.subscribe(onNext: onNext, onCompleted: onCompleted, onDisposed: onDisposed)
    }

    /// `subscribe(onNext:onCompleted:onDisposed:)` with `object` passed to each closure while it lives.
    public func subscribe<Object: AnyObject>(with object: Object, onNext: ((Object, Element) -> Void)? = nil,
                                             onCompleted: ((Object) -> Void)? = nil,
                                             onDisposed: ((Object) -> Void)? = nil) -> Disposable {
        source.subscribe(with: object, onNext: onNext, onCompleted: onCompleted, onDisposed: onDisposed)
    }

    /// Sends every element to `observers`.
    public func bind<Observer: ObserverType>(to observers: Observer...) -> Disposable where Observer.Element == Element {
        source.subscribe { event in for observer in observers { observer.on(event) } }
    }

    /// Transforms each element.
    public func map<Result>(_ transform: @escaping (Element) -> Result) -> Infallible<Result> { Infallible<Result>(raw: source.map(transform)) }
    /// Transforms each element, dropping `nil`s.
    public func compactMap<Result>(_ transform: @escaping (Element) -> Result?) -> Infallible<Result> { Infallible<Result>(raw: source.compactMap(transform)) }
    /// Keeps the elements for which `predicate` holds.
    public func filter(_ predicate: @escaping (Element) -> Bool) -> Infallible<Element> { Infallible(raw: source.filter(predicate)) }
    /// Accumulates, sending each intermediate result.
    public func scan<Accumulate>(_ seed: Accumulate, accumulator: @escaping (Accumulate, Element) -> Accumulate) -> Infallible<Accumulate> {
        Infallible<Accumulate>(raw: source.scan(seed, accumulator: accumulator))
    }
    /// Sends `elements` first.
    public func startWith(_ elements: Element...) -> Infallible<Element> { Infallible(raw: Observable.concat(.from(elements), source)) }
    /// Takes the first `count` elements.
    public func take(_ count: Int) -> Infallible<Element> { Infallible(raw: source.take(count)) }
    /// Skips the first `count` elements.
    public func skip(_ count: Int) -> Infallible<Element> { Infallible(raw: source.skip(count)) }
    /// Merges the streams made from each element (as in RxSwift, any stream; one that fails breaks the promise).
    public func flatMap<Inner: ObservableConvertibleType>(_ selector: @escaping (Element) -> Inner) -> Infallible<Inner.Element> {
        Infallible<Inner.Element>(raw: source.flatMap(selector))
    }
    /// Follows the stream made from the latest element only.
    public func flatMapLatest<Inner: ObservableConvertibleType>(_ selector: @escaping (Element) -> Inner) -> Infallible<Inner.Element> {
        Infallible<Inner.Element>(raw: source.flatMapLatest(selector))
    }
    /// Ignores elements while the stream made from an earlier one runs.
    public func flatMapFirst<Inner: ObservableConvertibleType>(_ selector: @escaping (Element) -> Inner) -> Infallible<Inner.Element> {
        Infallible<Inner.Element>(raw: source.flatMapFirst(selector))
    }
    /// Runs side effects, without changing the elements.
    public func `do`(onNext: ((Element) throws -> Void)? = nil, afterNext: ((Element) throws -> Void)? = nil,
                     onCompleted: (() throws -> Void)? = nil, afterCompleted: (() throws -> Void)? = nil,
                     onSubscribe: (() -> Void)? = nil, onSubscribed: (() -> Void)? = nil,
                     onDispose: (() -> Void)? = nil) -> Infallible<Element> {
        Infallible(raw: source.do(onNext: onNext, afterNext: afterNext, onCompleted: onCompleted, afterCompleted: afterCompleted,
                                  onSubscribe: onSubscribe, onSubscribed: onSubscribed, onDispose: onDispose))
    }
    /// Shares one subscription among subscribers, replaying the latest `replay` elements.
    public func share(replay: Int = 0, scope: SubjectLifetimeScope = .whileConnected) -> Infallible<Element> {
        Infallible(raw: source.share(replay: replay, scope: scope))
    }
    /// Waits for a pause of `dueTime` after an element before sending it.
    public func debounce(_ dueTime: RxTimeInterval, scheduler: SchedulerType) -> Infallible<Element> {
        Infallible(raw: source.debounce(dueTime, scheduler: scheduler))
    }
    /// Sends at most one element per `dueTime`.
    public func throttle(_ dueTime: RxTimeInterval, latest: Bool = true, scheduler: SchedulerType) -> Infallible<Element> {
        Infallible(raw: source.throttle(dueTime, latest: latest, scheduler: scheduler))
    }
    /// Pairs each element with `object` while it lives; completes once it is gone.
    public func withUnretained<Object: AnyObject>(_ object: Object) -> Infallible<(Object, Element)> {
        Infallible<(Object, Element)>(raw: source.withUnretained(object))
    }
    /// Combines each element with the latest of `second`.
    public func withLatestFrom<Second: ObservableConvertibleType, Result>(_ second: Second, resultSelector: @escaping (Element, Second.Element) -> Result) -> Infallible<Result> {
        Infallible<Result>(raw: source.withLatestFrom(second, resultSelector: resultSelector))
    }
    /// Merges `sources`.
    public static func merge(_ sources: Infallible<Element>...) -> Infallible<Element> {
        Infallible(raw: Observable.merge(sources.map(\.source)))
    }
}

extension Infallible where Element: Equatable {
    /// Drops elements equal to the previous one.
    public func distinctUntilChanged() -> Infallible<Element> { Infallible(raw: source.distinctUntilChanged()) }
}
