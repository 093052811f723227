extension ObservableType {
    /// Maps each element to an observable and merges their elements as they come; ends with an error from any of
    /// them, and completes when the source and every inner observable have completed.
    ///
    /// ```swift
    /// queries.flatMap { api.search($0) }
    /// ```
    @inlinable
    public func flatMap<Inner: ObservableConvertibleType>(_ selector: @escaping (Element) throws -> Inner) -> Observable<Inner.Element> {
        merging(maxConcurrent: .max, selector)
    }

    /// Like `flatMap`, but subscribes to one inner observable at a time, in order, queueing the rest.
    ///
    /// ```swift
    /// uploads.concatMap { api.upload($0) }
    /// ```
    @inlinable
    public func concatMap<Inner: ObservableConvertibleType>(_ selector: @escaping (Element) throws -> Inner) -> Observable<Inner.Element> {
        merging(maxConcurrent: 1, selector)
    }

    @inlinable
    func merging<Inner: ObservableConvertibleType>(maxConcurrent: Int, _ selector: @escaping (Element) throws -> Inner) -> Observable<Inner.Element> {
        let source = asObservable()
        return .make { sink in
            let merge = MergeSink<Element, Inner.Element>(downstream: sink, maxConcurrent: maxConcurrent) {
                try selector($0).asObservable()
            }
            return merge.run(source)
        }
    }
}

extension ObservableType where Element: ObservableConvertibleType {
    /// Merges the inner observables' elements as they come.
    ///
    /// ```swift
    /// Observable.of(a, b).merge()
    /// ```
    @inlinable
    public func merge() -> Observable<Element.Element> {
        flatMap { $0 }
    }

    /// Merges the inner observables, at most `maxConcurrent` subscribed at once; the others wait their turn.
    @inlinable
    public func merge(maxConcurrent: Int) -> Observable<Element.Element> {
        merging(maxConcurrent: max(1, maxConcurrent)) { $0 }
    }

    /// Subscribes to the inner observables one after another.
    ///
    /// ```swift
    /// Observable.of(first, second).concat()
    /// ```
    @inlinable
    public func concat() -> Observable<Element.Element> {
        concatMap { $0 }
    }
}

extension Observable {
    /// Merges the elements of `sources` as they come.
    ///
    /// ```swift
    /// Observable.merge(localChanges, remoteChanges)
    /// ```
    public static func merge(_ sources: Observable<Element>...) -> Observable<Element> {
        merge(sources)
    }

    /// Merges the elements of `sources` as they come.
    public static func merge<C: Collection>(_ sources: C) -> Observable<Element> where C.Element == Observable<Element> {
        Observable<Observable<Element>>.from(Array(sources)).merge()
    }
}

/// The sink behind `flatMap`, `concatMap` and `merge`.
///
/// Inner observables beyond `maxConcurrent` wait in a queue. Starting the next one is done in a loop, so a chain
/// of synchronous inner observables never recurses. Per-event code is `@inlinable` (see `Sink`, point 5): compiled
/// once, unspecialised, it looked up type metadata on every event, most of a `flatMap { .just($0) }` event's cost.
@usableFromInline
final class MergeSink<SourceElement, Element>: @unchecked Sendable { // mutable state is guarded by `lock`
    /// Its lock's word (see `InlineLock`): the first stored property.
    @usableFromInline var lockWord = 0
    @inlinable var lock: InlineLock { InlineLock(of: self) }
    @usableFromInline let downstream: SerializedObserver<Element>
    @usableFromInline let group = CompositeDisposable()
    @usableFromInline let selector: (SourceElement) throws -> Observable<Element>
    @usableFromInline let maxConcurrent: Int
    @usableFromInline @exclusivity(unchecked) var active = 0
    @usableFromInline @exclusivity(unchecked) var waiting = FIFO<Observable<Element>>()
    @usableFromInline @exclusivity(unchecked) var sourceCompleted = false
    @usableFromInline @exclusivity(unchecked) var starting = false

    @inlinable
    init(downstream: Sink<Element>, maxConcurrent: Int, selector: @escaping (SourceElement) throws -> Observable<Element>) {
        self.downstream = SerializedObserver(AnyObserver(downstream))
        self.maxConcurrent = maxConcurrent
        self.selector = selector
    }

    @inlinable
    func run(_ source: Observable<SourceElement>) -> Disposable {
        group.insert(source.subscribeInside(AnyObserver<SourceElement> { [self] event in
            switch event {
            case .next(let element):
                do {
                    enqueue(try selector(element))
                } catch {
                    downstream.onError(error)
                }
            case .error(let error):
                downstream.onError(error)
            case .completed:
                let done = lock.withLock {
                    sourceCompleted = true
                    return active == 0 && waiting.isEmpty
                }
                if done { downstream.onCompleted() }
            }
        }))
        return group
    }

    @inlinable
    func enqueue(_ inner: Observable<Element>) {
        lock.lock()
        waiting.append(inner)
        if starting {
            lock.unlock()
            return
        }
        starting = true
        startWaiting()
    }

    /// Called with `lock` held and `starting` set; returns with the lock released.
    @inlinable
    func startWaiting() {
        while active < maxConcurrent, let inner = waiting.popFirst() {
            active += 1
            lock.unlock()
            subscribe(inner)
            // The queue held the only reference: the stream, and what it holds, die here, before the lock (B12).
            _ = consume inner
            lock.lock()
        }
        starting = false
        lock.unlock()
    }

    @inlinable
    func subscribe(_ inner: Observable<Element>) {
        if let just = Just.matching(inner) {
            // What subscribing to a `just` would do, now, without the subscription: its element, then its end. No
            // check that this sink was disposed: its downstream sink drops the element then, as it would drop a
            // subscribed inner's.
            downstream.onNext(just.element)
            innerCompleted()
            return
        }
        let holder = SingleAssignmentDisposable()
        guard let key = group.insert(holder) else { return }
        holder.setDisposable(inner.subscribeInside(AnyObserver<Element> { [self] event in
            switch event {
            case .next:
                downstream.on(event)
            case .error:
                downstream.on(event)
            case .completed:
                group.forget(key)
                innerCompleted()
            }
        }))
    }

    /// An inner observable completed: starts the next waiting one, or completes if the source did and none is left.
    @inlinable
    func innerCompleted() {
        lock.lock()
        active -= 1
        if !waiting.isEmpty && !starting {
            starting = true
            startWaiting()
            return
        }
        let done = sourceCompleted && active == 0 && waiting.isEmpty
        lock.unlock()
        if done { downstream.onCompleted() }
    }
}
