import ReactorFlow
import ReactorFlowTesting
import Testing

@Suite("A11 Maybe, Completable and Infallible")
struct MaybeCompletableTests {
    let scheduler = TestScheduler(initialClock: 0)

    @Test("A11 Maybe reports success, completion or error once")
    func maybe() {
        var log: [String] = []
        func record(_ maybe: Maybe<Int>) {
            _ = maybe.subscribe(onSuccess: { log.append("success \($0)") }, onError: { log.append("error \($0)") },
                                onCompleted: { log.append("completed") }, onDisposed: { log.append("disposed") })
        }
        record(.create { observer in
            observer(.success(1))
            observer(.completed) // dropped
            return Disposables.create()
        })
        record(.empty())
        record(.error(TestError("m")))
        record(Maybe.just(2).filter { $0 > 5 })
        #expect(log == ["success 1", "disposed", "completed", "disposed", "error TestError(m)", "disposed", "completed", "disposed"])
    }

    @Test("A11 Maybe's ifEmpty gives a default or a fallback; map, compactMap and flatMap keep it a Maybe")
    func maybeOperators() {
        var log: [String] = []
        _ = Maybe<Int>.empty().ifEmpty(default: 9).subscribe(onSuccess: { log.append("default \($0)") })
        _ = Maybe<Int>.empty().ifEmpty(switchTo: Single.just(8)).subscribe(onSuccess: { log.append("single \($0)") })
        _ = Maybe<Int>.empty().ifEmpty(switchTo: Maybe.just(7)).subscribe(onSuccess: { log.append("maybe \($0)") })
        _ = Maybe.just(1).map { $0 + 1 }.flatMap { Maybe.just($0 * 10) }.subscribe(onSuccess: { log.append("chain \($0)") })
        _ = Maybe.just(1).compactMap { _ -> Int? in nil }.subscribe(onCompleted: { log.append("compacted away") })
        _ = Maybe<Int>.error(TestError()).catchAndReturn(3).subscribe(onSuccess: { log.append("returned \($0)") })
        #expect(log == ["default 9", "single 8", "maybe 7", "chain 20", "compacted away", "returned 3"])
    }

    @Test("A11 Completable reports completion or error once; andThen runs the next only after it completed")
    func completableAndThen() {
        let first = scheduler.createColdObservable([.completed(10, Never.self)])
        let second = scheduler.createColdObservable([.next(5, "done"), .completed(5)])
        let chained = scheduler.start { first.asCompletable().andThen(second.asSingle()) }
        #expect(chained.events == [.next(215, "done"), .completed(215)])
        #expect(first.subscriptions == [Subscription(200, 210)])
        #expect(second.subscriptions == [Subscription(210, 215)])

        let failing = TestScheduler(initialClock: 0)
        let broken = failing.createColdObservable([.error(10, TestError(), Never.self)])
        let never = failing.createColdObservable([.next(5, 1), .completed(5)])
        let failed = failing.start { broken.asCompletable().andThen(never.asObservable()) }
        #expect(failed.events == [.error(210, TestError())])
        #expect(never.subscriptions == [], "the next one is never subscribed")

        var log: [String] = []
        _ = Completable.empty().andThen(Completable.empty()).andThen(Maybe.just(1))
            .subscribe(onSuccess: { log.append("maybe \($0)") })
        _ = Completable.create { observer in
            observer(.completed)
            observer(.error(TestError())) // dropped
            return Disposables.create()
        }.subscribe(onCompleted: { log.append("completed") }, onError: { log.append("error \($0)") })
        _ = Completable.error(TestError("c")).subscribe(onCompleted: { log.append("completed") }, onError: { log.append("error \($0)") })
        #expect(log == ["maybe 1", "completed", "error TestError(c)"])
    }

    @Test("A11 Completable.concat runs one after another, zip all at once; the first error fails them")
    func completableCombining() {
        let a = scheduler.createColdObservable([.completed(10, Never.self)])
        let b = scheduler.createColdObservable([.completed(20, Never.self)])
        let sequential = scheduler.start { Completable.concat(a.asCompletable(), b.asCompletable()) }
        #expect(sequential.events == [.completed(230)])
        #expect(b.subscriptions == [Subscription(210, 230)])

        let other = TestScheduler(initialClock: 0)
        let c = other.createColdObservable([.completed(10, Never.self)])
        let d = other.createColdObservable([.completed(20, Never.self)])
        let parallel = other.start { Completable.zip(c.asCompletable(), d.asCompletable()) }
        #expect(parallel.events == [.completed(220)])
        #expect(d.subscriptions == [Subscription(200, 220)])
    }

    @Test("A11 Single.asMaybe and asCompletable keep the end")
    func singleConversions() {
        var log: [String] = []
        _ = Single.just(1).asMaybe().subscribe(onSuccess: { log.append("maybe \($0)") })
        _ = Single.just(1).asCompletable().subscribe(onCompleted: { log.append("completable") })
        _ = Single<Int>.error(TestError()).asCompletable().subscribe(onError: { _ in log.append("failed") })
        #expect(log == ["maybe 1", "completable", "failed"])
    }

    @Test("A11 Infallible: an error becomes a last element, a fallback or a recovery; subscribe has no onError")
    func infallible() {
        let failing = scheduler.createHotObservable([.next(210, 1), .error(220, TestError())])
        let replaced = scheduler.start { failing.asInfallible(onErrorJustReturn: -1).map { $0 * 2 } }
        #expect(replaced.events == [.next(210, 2), .next(220, -2), .completed(220)])

        var log: [String] = []
        _ = Observable<Int>.error(TestError()).asInfallible(onErrorFallbackTo: .of(7, 8))
            .subscribe(onNext: { log.append("next \($0)") }, onCompleted: { log.append("completed") })
        _ = Observable<Int>.error(TestError()).asInfallible(onErrorRecover: { _ in .just(9) })
            .filter { $0 > 0 }.distinctUntilChanged()
            .subscribe(onNext: { log.append("recovered \($0)") })
        #expect(log == ["next 7", "next 8", "completed", "recovered 9"])
    }

    @Test("A11 Infallible's RxSwift operators: concat, concatMap, scan(into:), distinctUntilChanged forms, skip, take, withLatestFrom, subscribe with one closure")
    func infallibleOperators() {
        func events<Element>(_ stream: Infallible<Element>) -> [Event<Element>] { stream.asObservable().log().0.events }
        #expect(events(Infallible.concat(.of(1, 2), .just(3)).concat(Observable.just(4))) ==
                [.next(1), .next(2), .next(3), .next(4), .completed])
        #expect(events(Infallible.concat([Infallible.just(5), .just(6)])) == [.next(5), .next(6), .completed])
        #expect(events(Infallible.of(1, 2).concatMap { Infallible.of($0, $0 * 10) }) ==
                [.next(1), .next(10), .next(2), .next(20), .completed])
        #expect(events(Infallible.of(1, 2, 3).scan(into: [Int]()) { $0.append($1) }) ==
                [.next([1]), .next([1, 2]), .next([1, 2, 3]), .completed])
        #expect(events(Infallible.of(1, 3, 2, 4).distinctUntilChanged { $0 % 2 }) == [.next(1), .next(2), .completed])
        #expect(events(Infallible.of(1, 2, 4).distinctUntilChanged { abs($0 - $1) < 2 }) == [.next(1), .next(4), .completed])
        #expect(events(Infallible.of("a", "b", "cc").distinctUntilChanged(at: \.count)) == [.next("a"), .next("cc"), .completed])
        #expect(events(Infallible.of(1, 2, 3, 1).skip(while: { $0 < 3 }).take(while: { $0 > 0 }, behavior: .inclusive)) ==
                [.next(3), .next(1), .completed])
        #expect(events(Infallible.of(1, 2, 3).take(until: { $0 == 2 }, behavior: .inclusive)) ==
                [.next(1), .next(2), .completed])
        #expect(events(Infallible.merge([Infallible.just(1), .just(2)])) == [.next(1), .next(2), .completed])
        #expect(events(Infallible<Int>.deferred { throw TestError("deferred") }.map { $0 }) == [.error(TestError("deferred"))])

        let trigger = PublishSubject<Int>()
        let latest = BehaviorRelay(value: "x")
        let (log, subscription) = trigger.asInfallible(onErrorJustReturn: 0).withLatestFrom(latest.asInfallible())
            .asObservable().log()
        trigger.onNext(1)
        latest.accept("y")
        trigger.onNext(2)
        subscription.dispose()
        #expect(log.elements == ["x", "y"])

        var seen: [String] = []
        _ = Infallible.of(1, 2).subscribe { event in
            switch event {
            case .next(let value): seen.append("next \(value)")
            case .completed: seen.append("completed")
            }
        }
        #expect(seen == ["next 1", "next 2", "completed"])
        let skipped = PublishSubject<Int>()
        let gate = PublishSubject<Void>()
        let (gated, gatedSubscription) = skipped.asInfallible(onErrorJustReturn: 0).skip(until: gate).asObservable().log()
        skipped.onNext(1)
        gate.onNext(())
        skipped.onNext(2)
        gatedSubscription.dispose()
        #expect(gated.elements == [2])
    }

    @Test("A9 relays and binders take bind(to:) from an Observable or an Infallible, optional relays included; Completable.merge of a collection")
    func bindingsToRelays() {
        let publish = PublishRelay<Int?>()
        let behavior = BehaviorRelay<Int?>(value: nil)
        let replay = ReplayRelay<Int?>.create(bufferSize: 3)
        let (published, _) = publish.log()
        Observable.of(1, 2).bind(to: publish).dispose()
        Observable.just(3).bind(to: behavior).dispose()
        Observable.of(4, 5).bind(to: replay).dispose()
        Infallible.just(6).bind(to: publish).dispose()
        Infallible.just(7).bind(to: behavior).dispose()
        #expect(published.elements == [1, 2, 6])
        #expect(behavior.value == 7)
        #expect(replay.asObservable().log().0.elements == [4, 5])

        let plain = PublishRelay<Int>()
        let (plainLog, _) = plain.log()
        Infallible.of(8, 9).bind(to: plain).dispose()
        var handled: [Int] = []
        Infallible.of(10).bind(onNext: { handled.append($0) }).dispose()
        #expect(plainLog.elements == [8, 9])
        #expect(handled == [10])
        func tagged(_ stream: Observable<Int>) -> (String) -> Int { { tag in stream.log().0.elements.count + tag.count } }
        #expect(Observable.of(1, 2).bind(to: tagged, curriedArgument: "ab") == 4)

        var completed = false
        _ = Completable.merge([Completable.empty(), Completable.empty()]).subscribe(onCompleted: { completed = true })
        #expect(completed)
    }
}
