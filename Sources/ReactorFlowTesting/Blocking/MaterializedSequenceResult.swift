/// How a stream that `BlockingObservable.materialize()` waited for ended, with the elements it sent before.
///
/// ```swift
/// if case .failed(let elements, let error) = stream.toBlocking().materialize() { … }
/// ```
@frozen
public enum MaterializedSequenceResult<T> {
    /// The stream completed after sending `elements`.
    case completed(elements: [T])
    /// The stream failed with `error` after sending `elements` (a timeout fails with `RxError.timeout`).
    case failed(elements: [T], error: Error)
}
