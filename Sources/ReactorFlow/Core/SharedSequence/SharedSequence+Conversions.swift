extension ObservableConvertibleType {
    /// A `Driver` of the stream: delivered on the main scheduler, an error replaced by `element` and completion.
    ///
    /// ```swift
    /// let title = reactor.state.map(\.title).asDriver(onErrorJustReturn: "")
    /// ```
    public func asDriver(onErrorJustReturn element: Element) -> Driver<Element> {
        Driver(asObservable().observe(on: DriverSharingStrategy.scheduler).catchAndReturn(element))
    }

    /// A `Driver` of the stream that continues with `fallback` after an error.
    public func asDriver(onErrorDriveWith fallback: Driver<Element>) -> Driver<Element> {
        Driver(asObservable().observe(on: DriverSharingStrategy.scheduler).catch { _ in fallback.source })
    }

    /// A `Driver` of the stream that continues with what `recover` makes from an error.
    public func asDriver(onErrorRecover recover: @escaping (any Error) -> Driver<Element>) -> Driver<Element> {
        Driver(asObservable().observe(on: DriverSharingStrategy.scheduler).catch { recover($0).source })
    }

    /// A `Signal` of the stream: delivered on the main scheduler, an error replaced by `element` and completion.
    public func asSignal(onErrorJustReturn element: Element) -> Signal<Element> {
        Signal(asObservable().observe(on: SignalSharingStrategy.scheduler).catchAndReturn(element))
    }

    /// A `Signal` of the stream that continues with `fallback` after an error.
    public func asSignal(onErrorSignalWith fallback: Signal<Element>) -> Signal<Element> {
        Signal(asObservable().observe(on: SignalSharingStrategy.scheduler).catch { _ in fallback.source })
    }

    /// A `Signal` of the stream that continues with what `recover` makes from an error.
    public func asSignal(onErrorRecover recover: @escaping (any Error) -> Signal<Element>) -> Signal<Element> {
        Signal(asObservable().observe(on: SignalSharingStrategy.scheduler).catch { recover($0).source })
    }
}

extension ObservableConvertibleType {
    /// A shared sequence of any strategy (`Driver`, `Signal` or your own): delivered on its scheduler, an error
    /// replaced by `element` and completion.
    public func asSharedSequence<Sharing: SharingStrategyProtocol>(sharingStrategy: Sharing.Type = Sharing.self,
                                                                   onErrorJustReturn element: Element) -> SharedSequence<Sharing, Element> {
        SharedSequence(asObservable().observe(on: Sharing.scheduler).catchAndReturn(element))
    }

    /// A shared sequence of any strategy that continues with `fallback` after an error.
    public func asSharedSequence<Sharing: SharingStrategyProtocol>(sharingStrategy: Sharing.Type = Sharing.self,
                                                                   onErrorDriveWith fallback: SharedSequence<Sharing, Element>) -> SharedSequence<Sharing, Element> {
        SharedSequence(asObservable().observe(on: Sharing.scheduler).catch { _ in fallback.source })
    }

    /// A shared sequence of any strategy that continues with what `recover` makes from an error.
    public func asSharedSequence<Sharing: SharingStrategyProtocol>(sharingStrategy: Sharing.Type = Sharing.self,
                                                                   onErrorRecover recover: @escaping (any Error) -> SharedSequence<Sharing, Element>) -> SharedSequence<Sharing, Element> {
        SharedSequence(asObservable().observe(on: Sharing.scheduler).catch { recover($0).source })
    }
}

extension BehaviorRelay {
    /// The relay as a `Driver`: its current value first, then every accepted one, on the main scheduler.
    public func asDriver() -> Driver<Element> {
        Driver(asObservable().observe(on: DriverSharingStrategy.scheduler))
    }
}

extension PublishRelay {
    /// The relay as a `Signal`: every accepted value, on the main scheduler.
    public func asSignal() -> Signal<Element> {
        Signal(asObservable().observe(on: SignalSharingStrategy.scheduler))
    }
}

extension SharedSequence where SharingStrategy == DriverSharingStrategy {
    /// The driver itself.
    public func asDriver() -> Driver<Element> { self }

    /// The same elements as a `Signal`, which does not replay.
    public func asSignal() -> Signal<Element> {
        Signal(source)
    }
}

extension SharedSequence where SharingStrategy == SignalSharingStrategy {
    /// The signal itself.
    public func asSignal() -> Signal<Element> { self }

    /// The same elements as a `Driver`, which replays the latest.
    public func asDriver() -> Driver<Element> {
        Driver(source)
    }
}
