extension ObservableType {
    /// Emits this stream's elements, then, once it completes, `second`'s.
    ///
    /// ```swift
    /// cached.concat(fresh)
    /// ```
    public func concat<Second: ObservableConvertibleType>(_ second: Second) -> Observable<Element> where Second.Element == Element {
        Observable.concat(asObservable(), second.asObservable())
    }
}

extension Observable {
    /// Subscribes to `sources` one after another; an error ends everything.
    ///
    /// ```swift
    /// Observable.concat(.just(.setLoading(true)), api.load().map(Mutation.setItems), .just(.setLoading(false)))
    /// ```
    @inlinable
    @_disfavoredOverload // two or three sources take the overloads below
    public static func concat(_ sources: Observable<Element>...) -> Observable<Element> {
        concat(sources)
    }

    /// Subscribes to `first`, then, once it completes, to `second`; an error ends everything.
    ///
    /// ```swift
    /// Observable.concat(.just(.setQuery(query)), .just(.setPage(1)))
    /// ```
    @inlinable @inline(__always) // see the three-source `concat`
    public static func concat(_ first: Observable<Element>, _ second: Observable<Element>) -> Observable<Element> {
        if first.kind == .just, second.kind == .just {
            let second = Just.element(of: second)
            return ConcatOfJusts(Just.element(of: first), second, second, hasThird: false)
        }
        return ConcatObservable.of(first, second, nil)
    }

    /// Subscribes to `first`, `second` and `third` one after another; an error ends everything.
    ///
    /// ```swift
    /// Observable.concat(.just(.setLoading(true)), .just(.setValue(value)), .just(.setLoading(false)))
    /// ```
    ///
    /// Made of `just`s, as a reactor's `mutate` often returns it, the result keeps only their elements. Inlined into
    /// the `mutate` that makes the `just`s, the check of each one's `kind` is decided at compile time, so the `just`s
    /// are never allocated, and the reactor applies the elements without subscribing. (An exact-type check would
    /// not be decided there: it reads the object's type at run time, which keeps the `just` alive.)
    @inlinable @inline(__always)
    public static func concat(_ first: Observable<Element>, _ second: Observable<Element>,
                              _ third: Observable<Element>) -> Observable<Element> {
        if first.kind == .just, second.kind == .just, third.kind == .just {
            return ConcatOfJusts(Just.element(of: first), Just.element(of: second), Just.element(of: third), hasThird: true)
        }
        return ConcatObservable.of(first, second, third)
    }

    /// Subscribes to `sources` one after another; an error ends everything. Moving to the next source is
    /// trampolined on `CurrentThreadScheduler`, so long chains of synchronous sources never recurse.
    @inlinable
    public static func concat<C: Collection>(_ sources: C) -> Observable<Element> where C.Element == Observable<Element> {
        ConcatObservable(Array(sources))
    }

    /// Subscribes to the observables of `sequence` one after another, as `concat(_:)` of a collection does. The
    /// sequence is iterated lazily, afresh for each subscription, so it may be endless.
    ///
    /// ```swift
    /// Observable.concat(pages.lazy.map(api.fetchPage))
    /// ```
    public static func concat<Sources: Sequence>(_ sequence: Sources) -> Observable<Element> where Sources.Element == Observable<Element> {
        make { sink in runInTurn(sequence, into: sink, movingOnAfterError: false) }
    }
}

/// The observable `concat` returns. It keeps its sources so that the reactor pipeline can apply a `concat` of
/// `just`s, the most common mutation stream after `just`, without subscribing.
@usableFromInline
final class ConcatObservable<Element>: Observable<Element> {
    @usableFromInline let sources: [Observable<Element>]

    @inlinable
    init(_ sources: [Observable<Element>]) {
        self.sources = sources
        super.init()
    }

    /// Out of line, so that the two- and three-source `concat`s, whose `just` case must be inlined into `mutate` for
    /// the `just`s to die there, stay small.
    ///
    /// The sources are gathered as an array of objects, the same layout: an array of a generic type made here, in code
    /// compiled once, would have its type looked up at run time.
    @usableFromInline
    static func of(_ first: Observable<Element>, _ second: Observable<Element>, _ third: Observable<Element>?) -> ConcatObservable {
        let objects: [AnyObject] = if let third { [first, second, third] } else { [first, second] }
        return ConcatObservable(unsafeBitCast(objects, to: [Observable<Element>].self))
    }

    /// Known when every source is a `just`. The sources are read as an array of objects, the same layout: as an
    /// array of a generic type, each access would be a call that looks up the type, in this unspecialised code.
    @usableFromInline @_semantics("optimize.sil.specialize.generic.never")
    override func forEachKnownElement(_ body: (_ element: Element, _ isLast: Bool) -> Void) -> Bool {
        let objects = unsafeBitCast(sources, to: [AnyObject].self)
        guard !objects.isEmpty, objects.allSatisfy({ unsafeDowncast($0, to: Observable<Element>.self).kind == .just }) else {
            return false
        }
        let last = objects.count - 1
        for index in 0...last {
            body(unsafeDowncast(objects[index], to: Just<Element>.self).element, index == last)
        }
        return true
    }

    @usableFromInline
    override func run(_ observer: AnyObserver<Element>) -> Disposable {
        let all = sources
        return Sink.running(observer) { sink in Observable.runInTurn(all, into: sink, movingOnAfterError: false) }
    }
}

/// The observable a two- or three-argument `concat` of `just`s returns: the elements alone, so that the reactor
/// pipeline applies them without subscribing and the `just`s need not outlive the call that made them.
@usableFromInline
final class ConcatOfJusts<Element>: Observable<Element> {
    @usableFromInline let first: Element
    @usableFromInline let second: Element
    /// The third element, if `hasThird`; otherwise `second` again. Not an optional: code compiled once that makes or
    /// tests one looks its type up at run time.
    @usableFromInline let third: Element
    @usableFromInline let hasThird: Bool

    /// Compiled once: it only sets fields, whose places come with the object, so it looks up no type at run time; the
    /// caller allocates the object with its type at hand.
    @usableFromInline @inline(never) @_semantics("optimize.sil.specialize.generic.never")
    init(_ first: Element, _ second: Element, _ third: Element, hasThird: Bool) {
        self.first = first
        self.second = second
        self.third = third
        self.hasThird = hasThird
        super.init()
    }

    @usableFromInline @_semantics("optimize.sil.specialize.generic.never")
    override func forEachKnownElement(_ body: (_ element: Element, _ isLast: Bool) -> Void) -> Bool {
        body(first, false)
        guard hasThird else {
            body(second, true)
            return true
        }
        body(second, false)
        body(third, true)
        return true
    }

    /// Exactly what the `concat` of the `just`s would do when subscribed (including its trampolining).
    @usableFromInline
    override func run(_ observer: AnyObserver<Element>) -> Disposable {
        var sources: [Observable<Element>] = [Just(first), Just(second)]
        if hasThird { sources.append(Just(third)) }
        return ConcatObservable(sources).run(observer)
    }
}
