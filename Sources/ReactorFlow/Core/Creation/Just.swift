extension Observable {
    /// One element, then completed.
    ///
    /// ```swift
    /// Observable.just(42) // next(42), completed
    /// ```
    @inlinable @inline(__always)
    public static func just(_ element: Element) -> Observable<Element> {
        Just(element)
    }

    /// The given elements in order, then completed.
    ///
    /// ```swift
    /// Observable.of(1, 2, 3)
    /// ```
    public static func of(_ elements: Element...) -> Observable<Element> {
        from(elements)
    }

    /// The elements of `sequence` in order, then completed. Stops iterating as soon as the subscriber disposes.
    ///
    /// ```swift
    /// Observable.from(1...3)
    /// ```
    public static func from<S: Sequence>(_ sequence: S) -> Observable<Element> where S.Element == Element {
        make { sink in
            if sink.isDisposed { return Disposables.create() }
            for element in sequence {
                sink.onNext(element)
                if sink.isDisposed { return Disposables.create() }
            }
            sink.onCompleted()
            return Disposables.create()
        }
    }

    /// `element`, then completed, each sent in its own `scheduler` action (on a `TestScheduler`, a tick apart).
    ///
    /// ```swift
    /// Observable.just(42, scheduler: scheduler) // next(42) at 201, completed at 202 after start()
    /// ```
    public static func just(_ element: Element, scheduler: ImmediateSchedulerType) -> Observable<Element> {
        from(CollectionOfOne(element), scheduler: scheduler)
    }

    /// The given elements in order, then completed, each sent in its own `scheduler` action.
    public static func of(_ elements: Element..., scheduler: ImmediateSchedulerType) -> Observable<Element> {
        from(elements, scheduler: scheduler)
    }

    /// The elements of `sequence` in order, then completed, each sent in its own `scheduler` action: the next is
    /// scheduled once the previous went out. Stops iterating as soon as the subscriber disposes.
    ///
    /// ```swift
    /// Observable.from(1...3, scheduler: SerialDispatchQueueScheduler(qos: .utility))
    /// ```
    public static func from<S: Sequence>(_ sequence: S, scheduler: ImmediateSchedulerType) -> Observable<Element> where S.Element == Element {
        make { sink in
            var remaining = sequence.makeIterator()
            // Each element is scheduled from inside the step before (see `Observable.loop(on:sink:_:)`).
            return scheduler.scheduleRecursive(()) { _, recurse in
                guard !sink.isDisposed else { return }
                guard let element = remaining.next() else { return sink.onCompleted() }
                sink.onNext(element)
                recurse(())
            }
        }
    }

    /// `optional`'s element, if it has one, then completed.
    ///
    /// ```swift
    /// Observable.from(optional: cachedUser) // the user, or just completed
    /// ```
    public static func from(optional: Element?) -> Observable<Element> {
        guard let optional else { return empty() }
        return just(optional)
    }

    /// `from(optional:)`, each event sent in its own `scheduler` action.
    public static func from(optional: Element?, scheduler: ImmediateSchedulerType) -> Observable<Element> {
        from(optional.map { [$0] } ?? [], scheduler: scheduler)
    }

    /// Completes at once.
    public static func empty() -> Observable<Element> {
        Empty()
    }

    /// Never sends anything.
    public static func never() -> Observable<Element> {
        Never()
    }

    /// Fails at once with `error`.
    ///
    /// ```swift
    /// Observable<Int>.error(LoginError.offline)
    /// ```
    public static func error(_ error: any Error) -> Observable<Element> {
        make { sink in
            sink.onError(error)
            return Disposables.create()
        }
    }
}

/// `just` is the most common mutation stream, so it skips the generic sink: it cannot break the grammar.
/// The reactor pipeline and the `flatMap` family recognise it and apply its element without subscribing at all.
@usableFromInline
final class Just<Element>: Observable<Element> {
    @usableFromInline let element: Element

    @inlinable @inline(__always)
    init(_ element: Element) {
        self.element = element
        super.init()
    }

    @inlinable @inline(__always) override var kind: ObservableKind { .just }

    /// `observable as? Just<Element>` without the runtime's dynamic cast: the class is final, so the exact type
    /// decides. (Cheaper than `kind` for an observable held in an array, which a class call would retain.)
    @inlinable
    static func matching(_ observable: Observable<Element>) -> Just<Element>? {
        guard ObjectIdentifier(type(of: observable)) == ObjectIdentifier(Just<Element>.self) else { return nil }
        return unsafeDowncast(observable, to: Just<Element>.self)
    }

    /// The element of `observable`, whose `kind` is `.just`.
    @inlinable @inline(__always)
    static func element(of observable: Observable<Element>) -> Element {
        unsafeDowncast(observable, to: Just<Element>.self).element
    }

    /// `observer.on` rather than `onNext` and `onCompleted`, protocol-extension calls that, in this code compiled
    /// once, each look up the observer's type and the event's at run time: here both events share one lookup.
    override func run(_ observer: AnyObserver<Element>) -> Disposable {
        observer.on(.next(element))
        observer.on(.completed)
        return Disposables.create()
    }

    @usableFromInline @_semantics("optimize.sil.specialize.generic.never")
    override func forEachKnownElement(_ body: (_ element: Element, _ isLast: Bool) -> Void) -> Bool {
        body(element, true)
        return true
    }
}

private final class Empty<Element>: Observable<Element> {
    override func run(_ observer: AnyObserver<Element>) -> Disposable {
        observer.onCompleted()
        return Disposables.create()
    }
}

private final class Never<Element>: Observable<Element> {
    override func run(_ observer: AnyObserver<Element>) -> Disposable {
        Disposables.create()
    }
}
