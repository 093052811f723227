extension ObservableType {
    /// Emits the first `count` elements, then completes and disposes the source.
    ///
    /// ```swift
    /// Observable.of(1, 2, 3).take(2) // 1, 2, completed
    /// ```
    public func take(_ count: Int) -> Observable<Element> {
        guard count > 0 else { return .empty() }
        return lift { sink in
            var remaining = count
            return { event in
                switch event {
                case .next(let element):
                    guard remaining > 0 else { return }
                    remaining -= 1
                    sink.onNext(element)
                    if remaining == 0 { sink.onCompleted() }
                default:
                    sink.forwardStop(event)
                }
            }
        }
    }
}
