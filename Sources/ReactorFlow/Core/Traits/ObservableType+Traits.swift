extension ObservableType {
    /// The stream as a `Single`: its one element once it completes. Fails with `RxError.noElements` if it completes
    /// without one, and with `RxError.moreThanOneElement` as soon as a second arrives.
    ///
    /// ```swift
    /// let user: Single<User> = api.get("/me").asSingle()
    /// ```
    public func asSingle() -> Single<Element> {
        Single(raw: atMostOne(required: true))
    }

    /// The stream as a `Maybe`: its element, if any, once it completes. Fails with `RxError.moreThanOneElement` as
    /// soon as a second arrives.
    public func asMaybe() -> Maybe<Element> {
        Maybe(raw: atMostOne(required: false))
    }

    /// The first element, or `nil` if the stream completes without one, as a `Single`.
    public func first() -> Single<Element?> {
        Single(raw: take(1).map { Optional($0) }.ifEmpty(default: nil))
    }

    /// Holds the one element back until completion (when a `Single` or `Maybe` hands it on).
    func atMostOne(required: Bool) -> Observable<Element> {
        let source = asObservable()
        return .make { sink in
            var held: Element?
            return source.subscribeInside(AnyObserver<Element> { event in
                switch event {
                case .next(let element):
                    if held != nil {
                        held = nil
                        sink.onError(RxError.moreThanOneElement)
                    } else {
                        held = element
                    }
                case .error(let error):
                    sink.onError(error)
                case .completed:
                    if let element = held {
                        held = nil
                        sink.onNext(element)
                        sink.onCompleted()
                    } else if required {
                        sink.onError(RxError.noElements)
                    } else {
                        sink.onCompleted()
                    }
                }
            })
        }
    }
}

extension ObservableType where Element == Never {
    /// The stream's end as a `Completable`.
    public func asCompletable() -> Completable {
        Completable(raw: asObservable())
    }
}
