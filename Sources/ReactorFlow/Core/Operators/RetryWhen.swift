extension ObservableType {
    /// On an error of type `Failure`, asks the stream that `notificationHandler` made from the errors: its next
    /// element resubscribes, its completion completes, its error fails. Errors of other types go through.
    ///
    /// The handler is called once per subscription, and its stream is subscribed before the source.
    ///
    /// ```swift
    /// request.retry(when: { errors in
    ///     errors.enumerated().flatMap { attempt, error in
    ///         attempt < 3 ? Observable<Int>.timer(.seconds(1 << attempt), scheduler: scheduler) : .error(error)
    ///     }
    /// })
    /// ```
    public func retry<TriggerObservable: ObservableType, Failure: Error>(
        when notificationHandler: @escaping (Observable<Failure>) -> TriggerObservable
    ) -> Observable<Element> {
        retrying(on: Failure.self, when: notificationHandler)
    }

    /// `retry(when:)` for any error.
    public func retry<TriggerObservable: ObservableType>(
        when notificationHandler: @escaping (Observable<any Error>) -> TriggerObservable
    ) -> Observable<Element> {
        retrying(on: (any Error).self, when: notificationHandler)
    }

    private func retrying<TriggerObservable: ObservableType, Failure>(
        on _: Failure.Type, when notificationHandler: @escaping (Observable<Failure>) -> TriggerObservable
    ) -> Observable<Element> {
        let source = asObservable()
        return .make { sink in
            let output = SerializedObserver(AnyObserver(sink))
            let errors = PublishSubject<Failure>()
            let notifier = PublishSubject<TriggerObservable.Element>()
            let triggerSubscription = notificationHandler(errors.asObservable()).subscribeInside(notifier)
            let current = SerialDisposable()
            let listening = SerialDisposable()
            func attempt() {
                guard !sink.isDisposed else { return }
                current.disposable = source.subscribeInside(AnyObserver<Element> { event in
                    switch event {
                    case .next, .completed:
                        output.on(event)
                    case .error(let error):
                        guard let failure = error as? Failure else { return output.onError(error) }
                        current.disposable = Disposables.create()
                        listening.disposable = notifier.subscribeInside(AnyObserver { trigger in
                            switch trigger {
                            case .next:
                                listening.disposable = Disposables.create()
                                // Trampolined: a source that fails synchronously returns before it is subscribed
                                // again. Not kept: `attempt` sets `current` itself, and checks for the end first.
                                CurrentThreadScheduler.instance.trampoline(attempt)
                            case .error(let error): output.onError(error)
                            case .completed: output.onCompleted()
                            }
                        })
                        errors.onNext(failure)
                    }
                })
            }
            let first = CurrentThreadScheduler.instance.schedule(attempt)
            return Disposables.create([triggerSubscription, first, current, listening])
        }
    }

}
