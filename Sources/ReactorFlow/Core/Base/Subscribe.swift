extension ObservableType {
    /// Subscribes with closures; any of them may be left out. None needs to be `@Sendable`.
    ///
    /// An error with no `onError` handler is reported through `Diagnostics` rather than crashing.
    ///
    /// ```swift
    /// reactor.state.map(\.count)
    ///     .subscribe(onNext: { [weak self] count in self?.label.text = "\(count)" })
    ///     .disposed(by: disposeBag)
    /// ```
    @inlinable @inline(never)
    public func subscribe(
        onNext: ((Element) -> Void)? = nil,
        onError: ((any Error) -> Void)? = nil,
        onCompleted: (() -> Void)? = nil,
        onDisposed: (() -> Void)? = nil
    ) -> Disposable {
        if let onNext, onError == nil, onCompleted == nil {
            // The most common form, with a handler for elements alone (see `subscribeAtBoundary(onNext:onDispose:)`).
            return asObservable().subscribeAtBoundary(onNext: onNext, onDispose: onDisposed)
        }
        let observer = AnyObserver<Element> { event in
            switch event {
            case .next(let element): onNext?(element)
            case .error(let error):
                if let onError { onError(error) } else { Diagnostics.report(.unhandledError, error: error) }
            case .completed: onCompleted?()
            }
        }
        return asObservable().subscribeAtBoundary(observer, onDispose: onDisposed, onNext: onNext)
    }

    /// `subscribe(onNext:onError:onCompleted:onDisposed:)` with `object` passed to each closure while it lives, held
    /// weakly: once it is gone, nothing is called. An error with no `onError` is reported through `Diagnostics`.
    ///
    /// ```swift
    /// reactor.state.map(\.title).subscribe(with: self, onNext: { owner, title in owner.render(title) })
    /// ```
    public func subscribe<Object: AnyObject>(
        with object: Object,
        onNext: ((Object, Element) -> Void)? = nil,
        onError: ((Object, any Error) -> Void)? = nil,
        onCompleted: ((Object) -> Void)? = nil,
        onDisposed: ((Object) -> Void)? = nil
    ) -> Disposable {
        subscribe(
            onNext: { [weak object] element in object.map { onNext?($0, element) } },
            onError: onError.map { onError in { [weak object] error in object.map { onError($0, error) } } },
            onCompleted: { [weak object] in object.map { onCompleted?($0) } },
            onDisposed: { [weak object] in object.map { onDisposed?($0) } }
        )
    }

    /// `bind(onNext:)` with `object` passed while it lives, held weakly: once it is gone, nothing is called.
    ///
    /// ```swift
    /// reactor.state.map(\.isLoading).bind(with: self) { owner, isLoading in owner.spinner.isHidden = !isLoading }
    /// ```
    public func bind<Object: AnyObject>(with object: Object, onNext: @escaping (Object, Element) -> Void) -> Disposable {
        bind(onNext: { [weak object] element in object.map { onNext($0, element) } })
    }

    /// Subscribes with one closure that receives every event.
    @inlinable
    public func subscribe(_ on: @escaping (Event<Element>) -> Void) -> Disposable {
        asObservable().subscribeAtBoundary(AnyObserver(eventHandler: on), onDispose: nil)
    }

    /// Forwards every event to each observer, as RxCocoa does: the stream's error or completion reaches the
    /// observers too. The usual targets decide what an end means to them: `reactor.action` and the relays ignore it,
    /// a `Binder` ignores completion and reports an error through `Diagnostics`; a subject ends.
    ///
    /// ```swift
    /// button.taps.map { .increase }.bind(to: reactor.action).disposed(by: disposeBag)
    /// ```
    public func bind<Observer: ObserverType>(to observers: Observer...) -> Disposable where Observer.Element == Element {
        subscribe { event in for observer in observers { observer.on(event) } }
    }

    /// Forwards every event, elements wrapped in `Optional`, to each observer.
    public func bind<Observer: ObserverType>(to observers: Observer...) -> Disposable where Observer.Element == Element? {
        map { Optional($0) }.subscribe { event in for observer in observers { observer.on(event) } }
    }

    /// Calls `onNext` for each element; an error is reported through `Diagnostics`.
    public func bind(onNext: @escaping (Element) -> Void) -> Disposable {
        subscribe(onNext: onNext, onError: { Diagnostics.report(.bindingError, error: $0) })
    }

    /// Hands the stream to `binder` and returns what it returns.
    public func bind<Result>(to binder: (Self) -> Result) -> Result {
        binder(self)
    }

    /// Hands the stream to `binder`, then `curriedArgument` to what that returns.
    public func bind<R1, R2>(to binder: (Self) -> (R1) -> R2, curriedArgument: R1) -> R2 {
        binder(self)(curriedArgument)
    }
}
