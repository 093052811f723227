extension SharedSequence {
    /// Transforms each element.
    public func map<Result>(_ transform: @escaping (Element) -> Result) -> SharedSequence<SharingStrategy, Result> {
        SharedSequence<SharingStrategy, Result>(source.map(transform))
    }

    /// Transforms each element, dropping `nil`s.
    public func compactMap<Result>(_ transform: @escaping (Element) -> Result?) -> SharedSequence<SharingStrategy, Result> {
        SharedSequence<SharingStrategy, Result>(source.compactMap(transform))
    }

    /// Keeps the elements for which `predicate` holds.
    public func filter(_ predicate: @escaping (Element) -> Bool) -> SharedSequence<SharingStrategy, Element> {
        SharedSequence(source.filter(predicate))
    }

    /// Follows the sequence made from the latest element only (which may share another way: a `Driver` can turn
    /// into a `Signal` here).
    public func flatMapLatest<Sharing, Result>(_ selector: @escaping (Element) -> SharedSequence<Sharing, Result>) -> SharedSequence<Sharing, Result> {
        SharedSequence<Sharing, Result>(source.flatMapLatest { selector($0).source })
    }

    /// Ignores elements while the sequence made from an earlier one runs.
    public func flatMapFirst<Sharing, Result>(_ selector: @escaping (Element) -> SharedSequence<Sharing, Result>) -> SharedSequence<Sharing, Result> {
        SharedSequence<Sharing, Result>(source.flatMapFirst { selector($0).source })
    }

    /// Merges the sequences made from each element.
    public func flatMap<Sharing, Result>(_ selector: @escaping (Element) -> SharedSequence<Sharing, Result>) -> SharedSequence<Sharing, Result> {
        SharedSequence<Sharing, Result>(source.flatMap { selector($0).source })
    }

    /// Prints every event and subscription, as `Observable.debug` does.
    public func debug(_ identifier: String? = nil, trimOutput: Bool = false, file: String = #fileID, line: UInt = #line)
        -> SharedSequence<SharingStrategy, Element> {
        SharedSequence(source.debug(identifier, trimOutput: trimOutput, file: file, line: line))
    }

    /// Combines each element with `object` while it lives; completes once it is gone.
    public func withUnretained<Object: AnyObject, Out>(_ object: Object, resultSelector: @escaping (Object, Element) -> Out)
        -> SharedSequence<SharingStrategy, Out> {
        SharedSequence<SharingStrategy, Out>(source.withUnretained(object, resultSelector: resultSelector))
    }

    /// Each of `sources` in turn.
    public static func concat<S: Sequence>(_ sources: S) -> SharedSequence<SharingStrategy, Element>
        where S.Element == SharedSequence<SharingStrategy, Element> {
        SharedSequence(Observable.concat(sources.map(\.source)))
    }

    /// Drops elements that `comparer` finds equal to the previous one.
    public func distinctUntilChanged(_ comparer: @escaping (Element, Element) -> Bool) -> SharedSequence<SharingStrategy, Element> {
        SharedSequence(source.distinctUntilChanged(comparer))
    }

    /// Drops elements whose key equals the previous one's.
    public func distinctUntilChanged<Key: Equatable>(_ keySelector: @escaping (Element) -> Key) -> SharedSequence<SharingStrategy, Element> {
        SharedSequence(source.distinctUntilChanged(keySelector))
    }

    /// Drops elements whose key `comparer` finds equal to the previous element's.
    public func distinctUntilChanged<Key>(_ keySelector: @escaping (Element) -> Key,
                                          comparer: @escaping (Key, Key) -> Bool) -> SharedSequence<SharingStrategy, Element> {
        SharedSequence(source.distinctUntilChanged(keySelector, comparer: comparer))
    }

    /// Drops elements whose property at `keyPath` equals the previous one's.
    public func distinctUntilChanged<Property: Equatable>(at keyPath: KeyPath<Element, Property>) -> SharedSequence<SharingStrategy, Element> {
        SharedSequence(source.distinctUntilChanged(at: keyPath))
    }

    /// Sends `elements` first.
    public func startWith(_ elements: Element...) -> SharedSequence<SharingStrategy, Element> {
        SharedSequence(Observable.concat(Observable.from(elements), source))
    }

    /// Combines each element with the latest element of `second`; nothing is sent before `second` has one.
    public func withLatestFrom<Second: SharedSequenceConvertibleType, Result>(
        _ second: Second, resultSelector: @escaping (Element, Second.Element) -> Result
    ) -> SharedSequence<SharingStrategy, Result> {
        SharedSequence<SharingStrategy, Result>(source.withLatestFrom(second.asObservable(), resultSelector: resultSelector))
    }

    /// The latest element of `second` at each element.
    public func withLatestFrom<Second: SharedSequenceConvertibleType>(_ second: Second) -> SharedSequence<SharingStrategy, Second.Element> {
        SharedSequence<SharingStrategy, Second.Element>(source.withLatestFrom(second.asObservable()))
    }

    /// Accumulates, sending each intermediate result.
    public func scan<Accumulate>(_ seed: Accumulate, accumulator: @escaping (Accumulate, Element) -> Accumulate) -> SharedSequence<SharingStrategy, Accumulate> {
        SharedSequence<SharingStrategy, Accumulate>(source.scan(seed, accumulator: accumulator))
    }

    /// Runs side effects, without changing the elements.
    public func `do`(onNext: ((Element) -> Void)? = nil, afterNext: ((Element) -> Void)? = nil,
                     onCompleted: (() -> Void)? = nil, afterCompleted: (() -> Void)? = nil,
                     onSubscribe: (() -> Void)? = nil, onSubscribed: (() -> Void)? = nil,
                     onDispose: (() -> Void)? = nil) -> SharedSequence<SharingStrategy, Element> {
        SharedSequence(source.do(onNext: onNext, afterNext: afterNext, onCompleted: onCompleted, afterCompleted: afterCompleted,
                                 onSubscribe: onSubscribe, onSubscribed: onSubscribed, onDispose: onDispose))
    }

    /// Waits for a pause of `dueTime` after an element before sending it, on the strategy's scheduler.
    public func debounce(_ dueTime: RxTimeInterval) -> SharedSequence<SharingStrategy, Element> {
        SharedSequence(source.debounce(dueTime, scheduler: SharingStrategy.scheduler))
    }

    /// Sends at most one element per `dueTime`, on the strategy's scheduler.
    public func throttle(_ dueTime: RxTimeInterval, latest: Bool = true) -> SharedSequence<SharingStrategy, Element> {
        SharedSequence(source.throttle(dueTime, latest: latest, scheduler: SharingStrategy.scheduler))
    }

    /// Delays each element by `dueTime`, on the strategy's scheduler.
    public func delay(_ dueTime: RxTimeInterval) -> SharedSequence<SharingStrategy, Element> {
        SharedSequence(source.delay(dueTime, scheduler: SharingStrategy.scheduler))
    }

    /// Skips the first `count` elements.
    public func skip(_ count: Int) -> SharedSequence<SharingStrategy, Element> {
        SharedSequence(source.skip(count))
    }

    /// Takes the first `count` elements.
    public func take(_ count: Int) -> SharedSequence<SharingStrategy, Element> {
        SharedSequence(source.take(count))
    }

    /// Pairs each element with `object` while it lives; completes once it is gone.
    public func withUnretained<Object: AnyObject>(_ object: Object) -> SharedSequence<SharingStrategy, (Object, Element)> {
        SharedSequence<SharingStrategy, (Object, Element)>(source.withUnretained(object))
    }

    /// Merges `sources`.
    public static func merge(_ sources: SharedSequence<SharingStrategy, Element>...) -> SharedSequence<SharingStrategy, Element> {
        merge(sources)
    }

    /// Merges `sources`.
    public static func merge<C: Collection>(_ sources: C) -> SharedSequence<SharingStrategy, Element> where C.Element == SharedSequence<SharingStrategy, Element> {
        SharedSequence(Observable.merge(sources.map(\.source)))
    }

    /// The latest elements of every one of `collection`, in order, whenever one sends (once all have).
    public static func combineLatest<Sources: Collection>(_ collection: Sources) -> SharedSequence<SharingStrategy, [Element]>
    where Sources.Element == SharedSequence<SharingStrategy, Element> {
        SharedSequence<SharingStrategy, [Element]>(Observable.combineLatest(collection.map(\.source)))
    }

    /// The latest elements of every one of `collection`, combined with `resultSelector`, whenever one sends.
    public static func combineLatest<Sources: Collection, Result>(
        _ collection: Sources, resultSelector: @escaping ([Element]) throws -> Result
    ) -> SharedSequence<SharingStrategy, Result> where Sources.Element == SharedSequence<SharingStrategy, Element> {
        SharedSequence<SharingStrategy, Result>(Observable.combineLatest(collection.map(\.source), resultSelector: resultSelector))
    }

    /// The n-th elements of every one of `collection`, in order.
    public static func zip<Sources: Collection>(_ collection: Sources) -> SharedSequence<SharingStrategy, [Element]>
    where Sources.Element == SharedSequence<SharingStrategy, Element> {
        SharedSequence<SharingStrategy, [Element]>(Observable.zip(collection.map(\.source)))
    }

    /// The n-th elements of every one of `collection`, combined with `resultSelector`.
    public static func zip<Sources: Collection, Result>(
        _ collection: Sources, resultSelector: @escaping ([Element]) throws -> Result
    ) -> SharedSequence<SharingStrategy, Result> where Sources.Element == SharedSequence<SharingStrategy, Element> {
        SharedSequence<SharingStrategy, Result>(Observable.zip(collection.map(\.source), resultSelector: resultSelector))
    }
}

extension SharedSequence where Element: SharedSequenceConvertibleType {
    /// Follows the latest inner sequence (whose sharing strategy the result takes).
    public func switchLatest() -> SharedSequence<Element.SharingStrategy, Element.Element> {
        SharedSequence<Element.SharingStrategy, Element.Element>(source.map { $0.asObservable() }.switchLatest())
    }

    /// Merges the inner sequences.
    public func merge() -> SharedSequence<Element.SharingStrategy, Element.Element> {
        SharedSequence<Element.SharingStrategy, Element.Element>(source.map { $0.asObservable() }.merge())
    }

    /// Merges the inner sequences, at most `maxConcurrent` at a time.
    public func merge(maxConcurrent: Int) -> SharedSequence<Element.SharingStrategy, Element.Element> {
        SharedSequence<Element.SharingStrategy, Element.Element>(source.map { $0.asObservable() }.merge(maxConcurrent: maxConcurrent))
    }
}

extension SharedSequence where Element: FixedWidthInteger {
    /// Sends `0, 1, 2, …`, one every `period`, on the strategy's scheduler.
    public static func interval(_ period: RxTimeInterval) -> SharedSequence<SharingStrategy, Element> {
        SharedSequence(Observable.interval(period, scheduler: SharingStrategy.scheduler))
    }

    /// Sends `0` after `dueTime`, then `1, 2, …` every `period`, on the strategy's scheduler.
    public static func timer(_ dueTime: RxTimeInterval, period: RxTimeInterval) -> SharedSequence<SharingStrategy, Element> {
        SharedSequence(Observable.timer(dueTime, period: period, scheduler: SharingStrategy.scheduler))
    }
}

extension SharedSequence where Element: Equatable {
    /// Drops elements equal to the previous one.
    public func distinctUntilChanged() -> SharedSequence<SharingStrategy, Element> {
        SharedSequence(source.distinctUntilChanged())
    }
}
