extension SharedSequence where SharingStrategy == DriverSharingStrategy {
    /// Sends every element and the completion to `observers`.
    ///
    /// ```swift
    /// reactor.state.map(\.title).asDriver(onErrorJustReturn: "").drive(titleBinder).disposed(by: disposeBag)
    /// ```
    public func drive<Observer: ObserverType>(_ observers: Observer...) -> Disposable where Observer.Element == Element {
        source.subscribe { event in for observer in observers { observer.on(event) } }
    }

    /// Sends every element, as an optional, and the completion to `observers`.
    public func drive<Observer: ObserverType>(_ observers: Observer...) -> Disposable where Observer.Element == Element? {
        source.map { Optional($0) }.subscribe { event in for observer in observers { observer.on(event) } }
    }

    /// Has `relays` accept every element.
    public func drive(_ relays: BehaviorRelay<Element>...) -> Disposable { source.bind(accepting: relays) }
    /// Has `relays` accept every element, as an optional.
    public func drive(_ relays: BehaviorRelay<Element?>...) -> Disposable { source.bind(accepting: relays) }
    /// Has `relays` accept every element.
    public func drive(_ relays: ReplayRelay<Element>...) -> Disposable { source.bind(accepting: relays) }
    /// Has `relays` accept every element, as an optional.
    public func drive(_ relays: ReplayRelay<Element?>...) -> Disposable { source.bind(accepting: relays) }

    /// Hands the stream to `transformation` and returns what it returns.
    public func drive<Result>(_ transformation: (Observable<Element>) -> Result) -> Result {
        transformation(source)
    }

    /// Hands the stream to `transformation`, then `curriedArgument` to what that returns.
    public func drive<R1, R2>(_ transformation: (Observable<Element>) -> (R1) -> R2, curriedArgument: R1) -> R2 {
        transformation(source)(curriedArgument)
    }

    /// Calls `onNext` for each element and `onCompleted` at the end, then `onDisposed` when the subscription ends.
    public func drive(onNext: ((Element) -> Void)? = nil, onCompleted: (() -> Void)? = nil,
                      onDisposed: (() -> Void)? = nil) -> Disposable {
        source.subscribe(onNext: onNext, onCompleted: onCompleted, onDisposed: onDisposed)
    }

    /// `drive(onNext:onCompleted:onDisposed:)` with `object` passed to each closure while it lives.
    public func drive<Object: AnyObject>(with object: Object, onNext: ((Object, Element) -> Void)? = nil,
                                         onCompleted: ((Object) -> Void)? = nil,
                                         onDisposed: ((Object) -> Void)? = nil) -> Disposable {
        source.subscribe(with: object, onNext: onNext, onCompleted: onCompleted, onDisposed: onDisposed)
    }
}

extension SharedSequence where SharingStrategy == SignalSharingStrategy {
    /// Sends every element and the completion to `observers`.
    public func emit<Observer: ObserverType>(to observers: Observer...) -> Disposable where Observer.Element == Element {
        source.subscribe { event in for observer in observers { observer.on(event) } }
    }

    /// Sends every element, as an optional, and the completion to `observers`.
    public func emit<Observer: ObserverType>(to observers: Observer...) -> Disposable where Observer.Element == Element? {
        source.map { Optional($0) }.subscribe { event in for observer in observers { observer.on(event) } }
    }

    /// Has `relays` accept every element.
    public func emit(to relays: PublishRelay<Element>...) -> Disposable { source.bind(accepting: relays) }
    /// Has `relays` accept every element, as an optional.
    public func emit(to relays: PublishRelay<Element?>...) -> Disposable { source.bind(accepting: relays) }
    /// Has `relays` accept every element.
    public func emit(to relays: BehaviorRelay<Element>...) -> Disposable { source.bind(accepting: relays) }
    /// Has `relays` accept every element, as an optional.
    public func emit(to relays: BehaviorRelay<Element?>...) -> Disposable { source.bind(accepting: relays) }
    /// Has `relays` accept every element.
    public func emit(to relays: ReplayRelay<Element>...) -> Disposable { source.bind(accepting: relays) }
    /// Has `relays` accept every element, as an optional.
    public func emit(to relays: ReplayRelay<Element?>...) -> Disposable { source.bind(accepting: relays) }

    /// Calls `onNext` for each element and `onCompleted` at the end, then `onDisposed` when the subscription ends.
    ///
    /// ```swift
    /// reactor.pulse(\.$alert).compactMap { $0 }.asSignal(onErrorJustReturn: "").emit(onNext: { show($0) })
    /// ```
    public func emit(onNext: ((Element) -> Void)? = nil, onCompleted: (() -> Void)? = nil,
                     onDisposed: (() -> Void)? = nil) -> Disposable {
        source.subscribe(onNext: onNext, onCompleted: onCompleted, onDisposed: onDisposed)
    }

    /// `emit(onNext:onCompleted:onDisposed:)` with `object` passed to each closure while it lives.
    public func emit<Object: AnyObject>(with object: Object, onNext: ((Object, Element) -> Void)? = nil,
                                        onCompleted: ((Object) -> Void)? = nil,
                                        onDisposed: ((Object) -> Void)? = nil) -> Disposable {
        source.subscribe(with: object, onNext: onNext, onCompleted: onCompleted, onDisposed: onDisposed)
    }
}
