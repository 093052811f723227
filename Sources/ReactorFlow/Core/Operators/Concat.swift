extension ObservableType {
    /// Emits this stream's elements, then, once it completes, `second`'s.
    ///
    /// ```swift
    /// cached.concat(fresh)
    /// ```
    public func concat<Second: ObservableConvertibleType>(_ second: Second) -> Observable<Element> where Second.Element == Element {
        Observable.concat([asObservable(), second.asObservable()])
    }
}

extension Observable {
    /// Subscribes to `sources` one after another; an error ends everything.
    ///
    /// ```swift
    /// Observable.concat(.just(.setLoading(true)), api.load().map(Mutation.setItems), .just(.setLoading(false)))
    /// ```
    @inlinable
    public static func concat(_ sources: Observable<Element>...) -> Observable<Element> {
        concat(sources)
    }

    /// Subscribes to `sources` one after another; an error ends everything. Moving to the next source is
    /// trampolined on `CurrentThreadScheduler`, so long chains of synchronous sources never recurse.
    @inlinable
    public static func concat<C: Collection>(_ sources: C) -> Observable<Element> where C.Element == Observable<Element> {
        ConcatObservable(Array(sources))
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

    @inlinable override var kind: ObservableKind { .concat }

    /// The sources if every one is a `just`, so that the elements are known without subscribing.
    @inlinable
    var justSources: [Observable<Element>]? { sources.allSatisfy { Just.matching($0) != nil } ? sources : nil }

    @usableFromInline
    override func run(_ observer: AnyObserver<Element>) -> Disposable {
        let all = sources
        return Sink.running(observer) { sink in
            let current = SerialDisposable()
            var index = 0
            func subscribeNext() {
                guard !sink.isDisposed else { return }
                guard index < all.count else {
                    sink.onCompleted()
                    return
                }
                let source = all[index]
                index += 1
                current.disposable = source.subscribeInside(AnyObserver<Element> { event in
                    if event.isCompleted {
                        // Trampolined: a source that completes synchronously returns before the next one starts.
                        _ = CurrentThreadScheduler.instance.schedule(subscribeNext)
                    } else {
                        sink.on(event)
                    }
                })
            }
            let first = CurrentThreadScheduler.instance.schedule(subscribeNext)
            return Disposables.create(first, current)
        }
    }
}
