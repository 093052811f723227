extension ObservableType {
    /// Emits the first `count` elements, then completes and disposes the source.
    ///
    /// ```swift
    /// Observable.of(1, 2, 3).take(2) // 1, 2, completed
    /// ```
    @inlinable
    public func take(_ count: Int) -> Observable<Element> {
        guard count > 0 else { return .empty() }
        return lift(TakeStep(remaining: count))
    }

    /// Emits the elements that arrive within `duration` of the subscription, then completes; the time is kept by
    /// `scheduler`.
    ///
    /// ```swift
    /// locationUpdates.take(for: .seconds(10), scheduler: MainScheduler.instance)
    /// ```
    public func take(for duration: RxTimeInterval, scheduler: SchedulerType) -> Observable<Element> {
        let source = asObservable()
        return .make { sink in
            // The timer and the source may send on different threads.
            let serialized = SerializedObserver(AnyObserver(sink))
            let timer = scheduler.scheduleRelative(duration) { serialized.onCompleted() }
            if sink.isDisposed { return timer }
            return Disposables.create(timer, source.subscribeInside(serialized))
        }
    }
}

/// `take(_:)`'s work on each element; counts down the elements still to let through, then completes.
@usableFromInline
struct TakeStep<Element>: OperatorStep {
    @usableFromInline typealias Input = Element
    @usableFromInline typealias Output = Element
    @usableFromInline var remaining: Int

    @inlinable
    init(remaining: Int) {
        self.remaining = remaining
    }

    @inlinable
    mutating func receive(_ element: Element, of runner: StepRunner<Self>) {
        guard remaining > 0 else { return }
        remaining -= 1
        runner.sendNext(element)
        if remaining == 0 { runner.output.onCompleted() }
    }
}
