extension ObservableType {
    /// On error, subscribes again, forever.
    ///
    /// ```swift
    /// flakyRequest.retry()
    /// ```
    public func retry() -> Observable<Element> {
        retry(Int.max)
    }

    /// Subscribes up to `maxAttemptCount` times in all; the last attempt's error is forwarded.
    /// Resubscriptions are trampolined, so a source that fails synchronously cannot overflow the stack.
    ///
    /// ```swift
    /// request.retry(3) // one try and two retries
    /// ```
    public func retry(_ maxAttemptCount: Int) -> Observable<Element> {
        let source = asObservable()
        return .make { sink in
            let current = SerialDisposable()
            var attempts = 0
            func attempt() {
                guard !sink.isDisposed else { return }
                attempts += 1
                current.disposable = source.subscribeInside(AnyObserver<Element> { event in
                    guard case .error = event, attempts < maxAttemptCount, !sink.isDisposed else {
                        sink.on(event)
                        return
                    }
                    // Trampolined: a source that fails synchronously returns before it is subscribed again.
                    CurrentThreadScheduler.instance.trampoline(attempt)
                })
            }
            guard maxAttemptCount > 0 else {
                sink.onCompleted()
                return current
            }
            let first = CurrentThreadScheduler.instance.schedule(attempt)
            return Disposables.create(first, current)
        }
    }
}
