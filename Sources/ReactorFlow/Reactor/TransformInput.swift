/// What a `transform` hook receives: a stream whose work starts only when it is subscribed. One is made per hook for
/// every reactor and usually dropped at once (the default transforms return it unchanged), so it is one object:
/// what it needs, and a function that captures nothing, written where the pipeline is compiled for the reactor's
/// types (so a subscription runs specialised code, with no closure context to allocate).
@usableFromInline
final class TransformInput<Source, Element>: Observable<Element> {
    @usableFromInline let source: Source
    @usableFromInline let start: (Source, AnyObserver<Element>) -> Disposable

    @inlinable
    init(_ source: Source, start: @escaping (Source, AnyObserver<Element>) -> Disposable) {
        self.source = source
        self.start = start
        super.init()
    }

    @usableFromInline
    override func run(_ observer: AnyObserver<Element>) -> Disposable {
        start(source, observer)
    }
}
