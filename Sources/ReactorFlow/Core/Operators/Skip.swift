extension ObservableType {
    /// Drops the first `count` elements.
    ///
    /// ```swift
    /// reactor.state.skip(1) // everything but the replayed current state
    /// ```
    @inlinable
    public func skip(_ count: Int) -> Observable<Element> {
        lift(SkipStep(remaining: count))
    }

    /// Drops elements while `predicate` holds, then emits everything; a thrown error ends the stream.
    ///
    /// ```swift
    /// Observable.of(1, 2, 5, 1).skip(while: { $0 < 3 }) // 5, 1
    /// ```
    @inlinable
    public func skip(while predicate: @escaping (Element) throws -> Bool) -> Observable<Element> {
        lift(SkipWhileStep(predicate: predicate))
    }

    /// Drops the elements that arrive within `duration` of the subscription; the time is kept by `scheduler`.
    ///
    /// ```swift
    /// sensorReadings.skip(.seconds(2), scheduler: MainScheduler.instance) // let the sensor settle
    /// ```
    public func skip(_ duration: RxTimeInterval, scheduler: SchedulerType) -> Observable<Element> {
        let source = asObservable()
        return .make { sink in
            let open = LockedValue(false)
            let timer = scheduler.scheduleRelative(duration) { open.withLock { $0 = true } }
            if sink.isDisposed { return timer }
            let subscription = source.subscribeInside(AnyObserver<Element>(lifetime: sink) { event in
                if case .next = event, !open.withLock({ $0 }) { return }
                sink.on(event)
            })
            return Disposables.create(timer, subscription)
        }
    }
}

/// `skip(_:)`'s work on each element; counts down the elements still to drop.
@usableFromInline
struct SkipStep<Element>: OperatorStep {
    @usableFromInline typealias Input = Element
    @usableFromInline typealias Output = Element
    @usableFromInline var remaining: Int

    @inlinable
    init(remaining: Int) {
        self.remaining = remaining
    }

    @inlinable
    mutating func receive(_ element: Element, of runner: StepRunner<Self>) {
        if remaining > 0 {
            remaining -= 1
        } else {
            runner.sendNext(element)
        }
    }
}

/// `skip(while:)`'s work on each element.
@usableFromInline
struct SkipWhileStep<Element>: OperatorStep {
    @usableFromInline typealias Input = Element
    @usableFromInline typealias Output = Element
    @usableFromInline let predicate: (Element) throws -> Bool
    @usableFromInline var skipping = true

    @inlinable
    init(predicate: @escaping (Element) throws -> Bool) {
        self.predicate = predicate
    }

    @inlinable
    mutating func receive(_ element: Element, of runner: StepRunner<Self>) {
        do {
            if skipping, try predicate(element) { return }
            skipping = false
            runner.sendNext(element)
        } catch {
            runner.output.onError(error)
        }
    }
}
