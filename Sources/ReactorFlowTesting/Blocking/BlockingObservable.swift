import Foundation
import ReactorFlow

/// A stream whose operators block the calling thread until it has what they ask for: RxBlocking's
/// `BlockingObservable`, for tests that need a stream's outcome as a plain value.
///
/// ```swift
/// let titles = try reactor.state.map(\.title).take(2).toBlocking(timeout: 1).toArray()
/// ```
///
/// Each operator subscribes once, on the calling thread, and waits there; see `Blocking/README.md` for how the wait
/// keeps the main queue running and what a timeout does. Prefer `TestScheduler` for anything timed: it needs no
/// waiting at all.
public struct BlockingObservable<Element> {
    /// How long an operator waits, in seconds, before it gives up with `RxError.timeout`; `nil` waits for as long as
    /// the stream takes.
    public let timeout: TimeInterval?
    /// The stream the operators subscribe to, once per call.
    public let source: Observable<Element>

    /// A blocking view of `source`.
    public init(timeout: TimeInterval?, source: Observable<Element>) {
        self.timeout = timeout
        self.source = source
    }
}

extension ObservableConvertibleType {
    /// This stream with blocking operators (`toArray()`, `first()`, `last()`, `single()`, `materialize()`), for tests.
    ///
    /// - Parameter timeout: the longest an operator waits, in seconds, before it throws `RxError.timeout`; `nil`, the
    ///   default, waits for as long as the stream takes.
    public func toBlocking(timeout: TimeInterval? = nil) -> BlockingObservable<Element> {
        BlockingObservable(timeout: timeout, source: asObservable())
    }
}
