/// An observable with a promise about how many elements it sends: the shape of `Single`, `Maybe` and
/// `Completable`. It wraps an `Observable` and keeps that promise for whoever subscribes; every operator on it is
/// the `Observable` operator of the same name, applied to the wrapped stream.
///
/// ```swift
/// func user(id: Int) -> Single<User> { api.get("/users/\(id)").map(User.init) }
/// user(id: 1).subscribe(onSuccess: { show($0) }, onFailure: { show(error: $0) })
/// ```
public struct PrimitiveSequence<Trait, Element> {
    /// The wrapped stream; it keeps the trait's promise.
    @usableFromInline let source: Observable<Element>

    /// Wraps `source`, which must keep the trait's promise (the conversions that check it are `asSingle()`,
    /// `asMaybe()` and `asCompletable()`).
    @usableFromInline init(raw source: Observable<Element>) {
        self.source = source
    }
}

/// The trait of `Single`: exactly one element, or an error.
public enum SingleTrait {}
/// The trait of `Maybe`: at most one element, then completion, or an error.
public enum MaybeTrait {}
/// The trait of `Completable`: no element; completion or an error.
public enum CompletableTrait {}

/// One element, or an error: what a request returns.
public typealias Single<Element> = PrimitiveSequence<SingleTrait, Element>
/// At most one element, or an error: a cache lookup.
public typealias Maybe<Element> = PrimitiveSequence<MaybeTrait, Element>
/// Completion or an error, and no element: a write.
public typealias Completable = PrimitiveSequence<CompletableTrait, Never>

/// A type that is a `PrimitiveSequence`: the constraint under which the traits' operators are written.
public protocol PrimitiveSequenceType<Trait, Element> {
    /// `SingleTrait`, `MaybeTrait` or `CompletableTrait`.
    associatedtype Trait
    /// The type of the element.
    associatedtype Element
    /// This value as a `PrimitiveSequence`.
    var primitiveSequence: PrimitiveSequence<Trait, Element> { get }
}

extension PrimitiveSequence: PrimitiveSequenceType {
    /// Itself.
    public var primitiveSequence: PrimitiveSequence<Trait, Element> { self }
}

extension PrimitiveSequence: ObservableConvertibleType {
    /// The stream behind the trait, to use any `Observable` operator.
    public func asObservable() -> Observable<Element> { source }
}

extension PrimitiveSequenceType {
    /// Subscribes `handler` to the first event only: a trait ends with its first result.
    func subscribeToFirstEvent(_ handler: @escaping (Event<Element>) -> Void) -> Disposable {
        var stopped = false
        return primitiveSequence.source.subscribe { event in
            guard !stopped else { return }
            stopped = true
            handler(event)
        }
    }

    /// Subscribes with what `subscribe` returns, running `onDisposed` once: after the result's callback (which
    /// disposes `ended`), or when the user disposes first.
    func subscribe(onDisposed: (() -> Void)?, _ subscribe: (_ ended: Disposable) -> Disposable) -> Disposable {
        let ended = onDisposed.map { Disposables.create(with: $0) } ?? Disposables.create()
        return Disposables.create(subscribe(ended), ended)
    }

    /// The same trait over `transform(source)`, which must keep the trait's promise.
    func wrapping<Result>(_ transform: (Observable<Element>) -> Observable<Result>) -> PrimitiveSequence<Trait, Result> {
        PrimitiveSequence(raw: transform(primitiveSequence.source))
    }

    /// Subscribes on `scheduler`: the work of subscribing (a request's start) runs there.
    public func subscribe(on scheduler: ImmediateSchedulerType) -> PrimitiveSequence<Trait, Element> {
        wrapping { $0.subscribe(on: scheduler) }
    }

    /// Delivers the result on `scheduler`.
    public func observe(on scheduler: ImmediateSchedulerType) -> PrimitiveSequence<Trait, Element> {
        wrapping { $0.observe(on: scheduler) }
    }

    /// Delays the result (not an error) by `dueTime` on `scheduler`.
    public func delay(_ dueTime: RxTimeInterval, scheduler: SchedulerType) -> PrimitiveSequence<Trait, Element> {
        wrapping { $0.delay(dueTime, scheduler: scheduler) }
    }

    /// Subscribes `dueTime` later, on `scheduler`.
    public func delaySubscription(_ dueTime: RxTimeInterval, scheduler: SchedulerType) -> PrimitiveSequence<Trait, Element> {
        wrapping { $0.delaySubscription(dueTime, scheduler: scheduler) }
    }

    /// Fails with `RxError.timeout` if no result arrives within `dueTime`.
    public func timeout(_ dueTime: RxTimeInterval, scheduler: SchedulerType) -> PrimitiveSequence<Trait, Element> {
        wrapping { $0.timeout(dueTime, scheduler: scheduler) }
    }

    /// Switches to `other` if no result arrives within `dueTime`.
    public func timeout(_ dueTime: RxTimeInterval, other: PrimitiveSequence<Trait, Element>, scheduler: SchedulerType) -> PrimitiveSequence<Trait, Element> {
        wrapping { $0.timeout(dueTime, other: other.source, scheduler: scheduler) }
    }

    /// On an error, continues with what `handler` returns for it.
    public func `catch`(_ handler: @escaping (any Error) throws -> PrimitiveSequence<Trait, Element>) -> PrimitiveSequence<Trait, Element> {
        wrapping { $0.catch { try handler($0).source } }
    }

    /// Resubscribes after an error, `maxAttemptCount` subscriptions in all; the last error goes through.
    public func retry(_ maxAttemptCount: Int) -> PrimitiveSequence<Trait, Element> {
        wrapping { $0.retry(maxAttemptCount) }
    }

    /// Resubscribes after every error.
    public func retry() -> PrimitiveSequence<Trait, Element> {
        wrapping { $0.retry() }
    }

    /// Resubscribes when the stream `notificationHandler` makes from the errors emits; ends when it ends.
    public func retry<TriggerObservable: ObservableType, Failure: Error>(
        when notificationHandler: @escaping (Observable<Failure>) -> TriggerObservable
    ) -> PrimitiveSequence<Trait, Element> {
        wrapping { $0.retry(when: notificationHandler) }
    }

    /// Resubscribes when the stream `notificationHandler` makes from the errors emits; ends when it ends.
    public func retry<TriggerObservable: ObservableType>(
        when notificationHandler: @escaping (Observable<any Error>) -> TriggerObservable
    ) -> PrimitiveSequence<Trait, Element> {
        wrapping { $0.retry(when: notificationHandler) }
    }

    /// Prints each event, with `identifier`, for debugging.
    public func debug(_ identifier: String? = nil, trimOutput: Bool = false, file: String = #fileID, line: UInt = #line) -> PrimitiveSequence<Trait, Element> {
        wrapping { $0.debug(identifier, trimOutput: trimOutput, file: file, line: line) }
    }

    /// Makes a fresh trait for each subscription.
    public static func deferred(_ factory: @escaping () throws -> PrimitiveSequence<Trait, Element>) -> PrimitiveSequence<Trait, Element> {
        PrimitiveSequence(raw: Observable.deferred { try factory().source })
    }

    /// Fails with `error` at once.
    public static func error(_ error: any Error) -> PrimitiveSequence<Trait, Element> {
        PrimitiveSequence(raw: Observable.error(error))
    }

    /// Never sends anything.
    public static func never() -> PrimitiveSequence<Trait, Element> {
        PrimitiveSequence(raw: Observable.never())
    }

    /// Uses a resource for the trait's lifetime: made on subscribe, disposed when the subscription ends.
    public static func using<Resource: Disposable>(_ resourceFactory: @escaping () throws -> Resource,
                                                   primitiveSequenceFactory: @escaping (Resource) throws -> PrimitiveSequence<Trait, Element>) -> PrimitiveSequence<Trait, Element> {
        PrimitiveSequence(raw: Observable.using(resourceFactory, observableFactory: { try primitiveSequenceFactory($0).source }))
    }
}

extension PrimitiveSequence where Element: FixedWidthInteger {
    /// `0` after `dueTime`, then the end: a `Single` that succeeds, a `Maybe` that succeeds, timed by `scheduler`.
    ///
    /// ```swift
    /// Single<Int>.timer(.seconds(2), scheduler: MainScheduler.instance)
    /// ```
    public static func timer(_ dueTime: RxTimeInterval, scheduler: SchedulerType) -> PrimitiveSequence<Trait, Element> {
        PrimitiveSequence(raw: Observable<Element>.timer(dueTime, scheduler: scheduler))
    }
}
