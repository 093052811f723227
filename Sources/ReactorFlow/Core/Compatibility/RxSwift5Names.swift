// RxSwift 4 and 5 names, kept so that code written for them compiles. Each is deprecated with the fix-it RxSwift 6
// gives, so the compiler says what to write instead.

extension ObservableType {
    /// RxSwift 5's name for `Element`.
    @available(*, deprecated, renamed: "Element")
    public typealias E = Element

    /// RxSwift 5's name for `catch(_:)`.
    @available(*, deprecated, renamed: "catch(_:)")
    public func catchError(_ handler: @escaping (any Error) throws -> Observable<Element>) -> Observable<Element> {
        self.catch(handler)
    }

    /// RxSwift 5's name for `catchAndReturn(_:)`.
    @available(*, deprecated, renamed: "catchAndReturn(_:)")
    public func catchErrorJustReturn(_ element: Element) -> Observable<Element> {
        catchAndReturn(element)
    }

    /// RxSwift 5's name for `observe(on:)`.
    @available(*, deprecated, renamed: "observe(on:)")
    public func observeOn(_ scheduler: ImmediateSchedulerType) -> Observable<Element> {
        observe(on: scheduler)
    }

    /// RxSwift 5's name for `subscribe(on:)`.
    @available(*, deprecated, renamed: "subscribe(on:)")
    public func subscribeOn(_ scheduler: ImmediateSchedulerType) -> Observable<Element> {
        subscribe(on: scheduler)
    }

    /// RxSwift 5's name for `take(until:)`.
    @available(*, deprecated, renamed: "take(until:)")
    public func takeUntil<Other: ObservableType>(_ other: Other) -> Observable<Element> {
        take(until: other)
    }

    /// RxSwift 5's name for `skip(until:)`.
    @available(*, deprecated, renamed: "skip(until:)")
    public func skipUntil<Other: ObservableType>(_ other: Other) -> Observable<Element> {
        skip(until: other)
    }

    /// RxSwift 5's name for `take(until:behavior:)` with a predicate.
    @available(*, deprecated, renamed: "take(until:behavior:)")
    public func takeUntil(_ behavior: TakeBehavior, predicate: @escaping (Element) throws -> Bool) -> Observable<Element> {
        take(until: predicate, behavior: behavior)
    }

    /// RxSwift 5's name for `take(for:scheduler:)`.
    @available(*, deprecated, renamed: "take(for:scheduler:)")
    public func take(_ duration: RxTimeInterval, scheduler: SchedulerType) -> Observable<Element> {
        take(for: duration, scheduler: scheduler)
    }

    /// RxSwift 5's name for `Observable.catch(sequence:)`.
    @available(*, deprecated, renamed: "catch(sequence:)")
    public static func catchError<Sources: Sequence>(_ sequence: Sources) -> Observable<Element> where Sources.Element == Observable<Element> {
        `catch`(sequence: sequence)
    }

    /// RxSwift 5's name for `take(while:)`.
    @available(*, deprecated, renamed: "take(while:)")
    public func takeWhile(_ predicate: @escaping (Element) throws -> Bool) -> Observable<Element> {
        take(while: predicate)
    }

    /// RxSwift 5's name for `skip(while:)`.
    @available(*, deprecated, renamed: "skip(while:)")
    public func skipWhile(_ predicate: @escaping (Element) throws -> Bool) -> Observable<Element> {
        skip(while: predicate)
    }

    /// RxSwift 5's name for `element(at:)`.
    @available(*, deprecated, renamed: "element(at:)")
    public func elementAt(_ index: Int) -> Observable<Element> {
        element(at: index)
    }

    /// RxSwift 5's name for `retry(when:)`.
    @available(*, deprecated, renamed: "retry(when:)")
    public func retryWhen<TriggerObservable: ObservableType, Failure: Error>(
        _ notificationHandler: @escaping (Observable<Failure>) -> TriggerObservable
    ) -> Observable<Element> {
        retry(when: notificationHandler)
    }

    /// RxSwift 5's name for `retry(when:)`.
    @available(*, deprecated, renamed: "retry(when:)")
    public func retryWhen<TriggerObservable: ObservableType>(
        _ notificationHandler: @escaping (Observable<any Error>) -> TriggerObservable
    ) -> Observable<Element> {
        retry(when: notificationHandler)
    }
}

extension PrimitiveSequenceType {
    /// RxSwift 5's name for `observe(on:)`.
    @available(*, deprecated, renamed: "observe(on:)")
    public func observeOn(_ scheduler: ImmediateSchedulerType) -> PrimitiveSequence<Trait, Element> {
        observe(on: scheduler)
    }

    /// RxSwift 5's name for `subscribe(on:)`.
    @available(*, deprecated, renamed: "subscribe(on:)")
    public func subscribeOn(_ scheduler: ImmediateSchedulerType) -> PrimitiveSequence<Trait, Element> {
        subscribe(on: scheduler)
    }

    /// RxSwift 5's name for `catch(_:)`.
    @available(*, deprecated, renamed: "catch(_:)")
    public func catchError(_ handler: @escaping (any Error) throws -> PrimitiveSequence<Trait, Element>) -> PrimitiveSequence<Trait, Element> {
        self.catch(handler)
    }
}
