/// The rest of RxSwift 6's `Infallible` operators, each the `Observable` operator of the same name on the stream
/// behind it.
extension Infallible {
    /// Sends the elements of `sequence` on `scheduler`, then completes.
    public static func from<S: Sequence>(_ sequence: S, scheduler: ImmediateSchedulerType) -> Infallible<Element>
        where S.Element == Element {
        Infallible(raw: .from(sequence, scheduler: scheduler))
    }

    /// Sends `elements` on `scheduler`, then completes.
    public static func of(_ elements: Element..., scheduler: ImmediateSchedulerType) -> Infallible<Element> {
        Infallible(raw: .from(elements, scheduler: scheduler))
    }

    /// Sends `element` on `scheduler`, then completes.
    public static func just(_ element: Element, scheduler: ImmediateSchedulerType) -> Infallible<Element> {
        Infallible(raw: .just(element, scheduler: scheduler))
    }

    /// Merges `sources`.
    public static func merge<C: Collection>(_ sources: C) -> Infallible<Element> where C.Element == Infallible<Element> {
        Infallible(raw: Observable.merge(sources.map(\.source)))
    }

    /// Each of `sources` in turn.
    public static func concat(_ sources: Infallible<Element>...) -> Infallible<Element> {
        Infallible(raw: Observable.concat(sources.map(\.source)))
    }

    /// Each of `sources` in turn.
    public static func concat<S: Sequence>(_ sources: S) -> Infallible<Element> where S.Element == Infallible<Element> {
        Infallible(raw: Observable.concat(sources.map(\.source)))
    }

    /// This stream, then `second`.
    public func concat<Second: ObservableConvertibleType>(_ second: Second) -> Infallible<Element>
        where Second.Element == Element {
        Infallible(raw: source.concat(second))
    }

    /// The streams made from each element, one after another.
    public func concatMap<Inner: ObservableConvertibleType>(_ selector: @escaping (Element) -> Inner) -> Infallible<Inner.Element> {
        Infallible<Inner.Element>(raw: source.concatMap(selector))
    }

    /// Accumulates into `seed` in place, sending each intermediate result.
    public func scan<Accumulate>(into seed: Accumulate, accumulator: @escaping (inout Accumulate, Element) -> Void)
        -> Infallible<Accumulate> {
        Infallible<Accumulate>(raw: source.scan(into: seed, accumulator: accumulator))
    }

    /// Drops elements that `comparer` finds equal to the previous one.
    public func distinctUntilChanged(_ comparer: @escaping (Element, Element) throws -> Bool) -> Infallible<Element> {
        Infallible(raw: source.distinctUntilChanged(comparer))
    }

    /// Drops elements whose key equals the previous element's.
    public func distinctUntilChanged<Key: Equatable>(_ keySelector: @escaping (Element) throws -> Key) -> Infallible<Element> {
        Infallible(raw: source.distinctUntilChanged(keySelector))
    }

    /// Drops elements whose key `comparer` finds equal to the previous element's.
    public func distinctUntilChanged<Key>(_ keySelector: @escaping (Element) throws -> Key,
                                          comparer: @escaping (Key, Key) throws -> Bool) -> Infallible<Element> {
        Infallible(raw: source.distinctUntilChanged(keySelector, comparer: comparer))
    }

    /// Drops elements whose property at `keyPath` equals the previous element's.
    public func distinctUntilChanged<Property: Equatable>(at keyPath: KeyPath<Element, Property>) -> Infallible<Element> {
        Infallible(raw: source.distinctUntilChanged(at: keyPath))
    }

    /// Skips elements until `other` sends one.
    public func skip<Other: ObservableType>(until other: Other) -> Infallible<Element> {
        Infallible(raw: source.skip(until: other))
    }

    /// Skips elements while `predicate` holds.
    public func skip(while predicate: @escaping (Element) throws -> Bool) -> Infallible<Element> {
        Infallible(raw: source.skip(while: predicate))
    }

    /// Takes elements until `other` sends one, then completes.
    public func take<Other: ObservableConvertibleType>(until other: Other) -> Infallible<Element> {
        Infallible(raw: source.take(until: other))
    }

    /// Takes elements until `predicate` holds for one (which `behavior` keeps or drops), then completes.
    public func take(until predicate: @escaping (Element) throws -> Bool, behavior: TakeBehavior = .exclusive)
        -> Infallible<Element> {
        Infallible(raw: source.take(until: predicate, behavior: behavior))
    }

    /// Takes elements while `predicate` holds (the first that fails it is kept or dropped by `behavior`).
    public func take(while predicate: @escaping (Element) throws -> Bool, behavior: TakeBehavior = .exclusive)
        -> Infallible<Element> {
        Infallible(raw: source.take(while: predicate, behavior: behavior))
    }

    /// Takes the elements of the first `duration`, then completes.
    public func take(for duration: RxTimeInterval, scheduler: SchedulerType) -> Infallible<Element> {
        Infallible(raw: source.take(for: duration, scheduler: scheduler))
    }

    /// Combines each element with `object` while it lives; completes once it is gone.
    public func withUnretained<Object: AnyObject, Out>(_ object: Object, resultSelector: @escaping (Object, Element) -> Out)
        -> Infallible<Out> {
        Infallible<Out>(raw: source.withUnretained(object, resultSelector: resultSelector))
    }

    /// The latest element of `second` at each element of this stream.
    public func withLatestFrom<Second: InfallibleType>(_ second: Second) -> Infallible<Second.Element> {
        Infallible<Second.Element>(raw: source.withLatestFrom(second))
    }

    /// Prints every event and subscription, as `Observable.debug` does.
    public func debug(_ identifier: String? = nil, trimOutput: Bool = false, file: String = #fileID, line: UInt = #line)
        -> Infallible<Element> {
        Infallible(raw: source.debug(identifier, trimOutput: trimOutput, file: file, line: line))
    }

    /// Subscribes with one closure that receives every event.
    public func subscribe(_ on: @escaping (InfallibleEvent<Element>) -> Void) -> Disposable {
        source.subscribe { event in
            switch event {
            case .next(let element): on(.next(element))
            case .completed: on(.completed)
            case .error(let error): Diagnostics.report(.unhandledError, error: error, message: "an Infallible failed")
            }
        }
    }

    /// Sends every element, as an optional, and the completion to `observers`.
    public func bind<Observer: ObserverType>(to observers: Observer...) -> Disposable where Observer.Element == Element? {
        source.map { Optional($0) }.subscribe { event in for observer in observers { observer.on(event) } }
    }

    /// Calls `onNext` for each element.
    public func bind(onNext: @escaping (Element) -> Void) -> Disposable {
        source.bind(onNext: onNext)
    }

    /// Has each relay accept every element.
    public func bind(to relays: PublishRelay<Element>...) -> Disposable { source.bind(accepting: relays) }
    /// Has each relay accept every element.
    public func bind(to relays: BehaviorRelay<Element>...) -> Disposable { source.bind(accepting: relays) }
    /// Has each relay accept every element.
    public func bind(to relays: ReplayRelay<Element>...) -> Disposable { source.bind(accepting: relays) }
    /// Has each relay accept every element, as an optional.
    public func bind(to relays: PublishRelay<Element?>...) -> Disposable { source.bind(accepting: relays) }
    /// Has each relay accept every element, as an optional.
    public func bind(to relays: BehaviorRelay<Element?>...) -> Disposable { source.bind(accepting: relays) }
    /// Has each relay accept every element, as an optional.
    public func bind(to relays: ReplayRelay<Element?>...) -> Disposable { source.bind(accepting: relays) }

    /// Hands the stream to `binder` and returns what it returns.
    public func bind<Result>(to binder: (Self) -> Result) -> Result {
        binder(self)
    }

    /// Hands the stream to `binder`, then `curriedArgument` to what that returns.
    public func bind<R1, R2>(to binder: (Self) -> (R1) -> R2, curriedArgument: R1) -> R2 {
        binder(self)(curriedArgument)
    }

    /// The stream as a `Driver`: delivered on the main scheduler, sharing its latest element.
    public func asDriver() -> Driver<Element> {
        source.asDriver(onErrorRecover: { error in
            Diagnostics.report(.unhandledError, error: error, message: "an Infallible failed")
            return .empty()
        })
    }
}
