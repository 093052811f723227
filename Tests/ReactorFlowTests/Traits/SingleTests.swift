import ReactorFlow
import ReactorFlowTesting
import Testing

@Suite("A11 Single")
struct SingleTests {
    let scheduler = TestScheduler(initialClock: 0)

    @Test("A11 create reports success or failure once; onDisposed runs when the subscription ends")
    func createAndSubscribe() {
        var log: [String] = []
        var disposedWork = 0
        let single = Single<Int>.create { observer in
            observer(.success(1))
            observer(.success(2)) // dropped: a Single ends with its first result
            return Disposables.create { disposedWork += 1 }
        }
        let subscription = single.subscribe(onSuccess: { log.append("success \($0)") },
                                            onFailure: { log.append("failure \($0)") },
                                            onDisposed: { log.append("disposed") })
        subscription.dispose()
        #expect(log == ["success 1", "disposed"])
        #expect(disposedWork == 1)

        log = []
        _ = Single<Int>.create { observer in
            observer(.failure(TestError("no")))
            return Disposables.create()
        }.subscribe(onSuccess: { log.append("success \($0)") }, onFailure: { log.append("failure \($0)") })
        #expect(log == ["failure TestError(no)"])
    }

    @Test("A11 A4 just, error, never and deferred; deferred runs its factory per subscription")
    func creation() {
        var results: [SingleEvent<Int>] = []
        _ = Single.just(5).subscribe { results.append($0) }
        _ = Single<Int>.error(TestError()).subscribe { results.append($0) }
        _ = Single<Int>.never().subscribe { results.append($0) }
        #expect(results.map { (try? $0.get()) ?? -1 } == [5, -1])
        var made = 0
        let deferred = Single<Int>.deferred { made += 1; return .just(made) }
        var values: [Int] = []
        _ = deferred.subscribe(onSuccess: { values.append($0) })
        _ = deferred.subscribe(onSuccess: { values.append($0) })
        #expect(values == [1, 2])
    }

    @Test("A11 asSingle holds the element until completion; none or two elements fail with RxSwift's errors")
    func asSingle() {
        let one = scheduler.createHotObservable([.next(210, 1), .completed(250)])
        #expect(scheduler.start { one.asSingle() }.events == [.next(250, 1), .completed(250)])

        let none = TestScheduler(initialClock: 0)
        let empty = none.createHotObservable([.completed(250, Int.self)])
        #expect(none.start { empty.asSingle() }.events == [.error(250, RxError.noElements)])

        let two = TestScheduler(initialClock: 0)
        let pair = two.createHotObservable([.next(210, 1), .next(220, 2), .completed(250)])
        #expect(two.start { pair.asSingle() }.events == [.error(220, RxError.moreThanOneElement)])
        #expect(pair.subscriptions == [Subscription(200, 220)])
    }

    @Test("A11 asMaybe, asCompletable, first and toArray keep RxSwift's types and events")
    func conversions() {
        let empty = scheduler.createHotObservable([.completed(250, Int.self)])
        let maybe: Maybe<Int> = empty.asMaybe()
        #expect(scheduler.start { maybe }.events == [.completed(250)])

        let other = TestScheduler(initialClock: 0)
        let source = other.createHotObservable([.next(210, 1), .next(220, 2), .next(230, 3), .completed(250)])
        let array: Single<[Int]> = source.toArray()
        #expect(other.start { array }.events == [.next(250, [1, 2, 3]), .completed(250)])

        let third = TestScheduler(initialClock: 0)
        let values = third.createHotObservable([.next(210, 1), .completed(250)])
        let done: Completable = values.ignoreElements().asCompletable()
        #expect(third.start { done }.events == [.completed(250)])

        var firsts: [Int?] = []
        _ = Observable.of(7, 8).first().subscribe(onSuccess: { firsts.append($0) })
        _ = Observable<Int>.empty().first().subscribe(onSuccess: { firsts.append($0) })
        #expect(firsts == [7, nil])
    }

    @Test("A11 map, compactMap, flatMap, flatMapMaybe and flatMapCompletable")
    func transforming() {
        var log: [String] = []
        _ = Single.just(2).map { $0 * 10 }.subscribe(onSuccess: { log.append("map \($0)") })
        _ = Single.just(2).compactMap { $0 > 5 ? $0 : nil }.subscribe(onSuccess: { log.append("kept \($0)") }, onCompleted: { log.append("dropped") })
        _ = Single.just(2).flatMap { Single.just("\($0)!") }.subscribe(onSuccess: { log.append("flatMap \($0)") })
        _ = Single.just(2).flatMapMaybe { _ in Maybe<Int>.empty() }.subscribe(onCompleted: { log.append("maybe empty") })
        _ = Single.just(2).flatMapCompletable { _ in Completable.empty() }.subscribe(onCompleted: { log.append("completable") })
        _ = Single.just(2).map { _ -> Int in throw TestError("thrown") }.subscribe(onFailure: { log.append("failure \($0)") })
        #expect(log == ["map 20", "dropped", "flatMap 2!", "maybe empty", "completable", "failure TestError(thrown)"])
    }

    @Test("A11 A6 catch, catchAndReturn and retry recover; retry resubscribes the source")
    func recovering() {
        var log: [String] = []
        _ = Single<Int>.error(TestError()).catchAndReturn(0).subscribe(onSuccess: { log.append("returned \($0)") })
        _ = Single<Int>.error(TestError()).catch { _ in .just(1) }.subscribe(onSuccess: { log.append("caught \($0)") })
        #expect(log == ["returned 0", "caught 1"])

        let cold = scheduler.createColdObservable([.error(10, TestError(), Int.self)])
        let results = scheduler.start { cold.asSingle().retry(2) }
        #expect(results.events == [.error(220, TestError())])
        #expect(cold.subscriptions == [Subscription(200, 210), Subscription(210, 220)])
    }

    @Test("A11 A7 timeout, delay, observe(on:) and subscribe(on:) in virtual time")
    func timing() {
        let slow = scheduler.createColdObservable([.next(30, 1), .completed(30)])
        #expect(scheduler.start { slow.asSingle().timeout(.seconds(20), scheduler: scheduler) }.events == [.error(220, RxError.timeout)])

        let second = TestScheduler(initialClock: 0)
        // As in RxSwift, `delay` and `observe(on:)` send one event per scheduled action: the completion, which
        // came with the element, goes out a tick after it (RxTest's processing delay).
        #expect(second.start { Single.just(4).delay(.seconds(5), scheduler: second) }.events == [.next(205, 4), .completed(206)])

        let third = TestScheduler(initialClock: 0)
        #expect(third.start { Single.just(4).observe(on: third) }.events == [.next(201, 4), .completed(202)])
        let fourth = TestScheduler(initialClock: 0)
        #expect(fourth.start { Single.just(4).subscribe(on: fourth) }.events == [.next(201, 4), .completed(201)])
    }

    @Test("A11 do(onSuccess:…) runs its side effects in order, around the result")
    func sideEffects() {
        var log: [String] = []
        _ = Single.just(1)
            .do(onSuccess: { log.append("onSuccess \($0)") }, afterSuccess: { log.append("afterSuccess \($0)") },
                onSubscribe: { log.append("onSubscribe") }, onSubscribed: { log.append("onSubscribed") },
                onDispose: { log.append("onDispose") })
            .subscribe(onSuccess: { log.append("success \($0)") })
        // As in RxSwift: a synchronous source has ended before subscribe returns, so onDispose comes last.
        #expect(log == ["onSubscribe", "onSuccess 1", "success 1", "afterSuccess 1", "onSubscribed", "onDispose"])
    }

    @Test("A11 zip waits for every Single; the first error fails it")
    func zipping() {
        let a = scheduler.createColdObservable([.next(10, 1), .completed(10)])
        let b = scheduler.createColdObservable([.next(30, "b"), .completed(30)])
        let zipped = scheduler.start { Single.zip(a.asSingle(), b.asSingle()) { "\($0)\($1)" } }
        #expect(zipped.events == [.next(230, "1b"), .completed(230)])

        var all: [[Int]] = []
        _ = Single.zip([Single.just(1), .just(2), .just(3)]).subscribe(onSuccess: { all.append($0) })
        _ = Single.zip([Single<Int>]()).subscribe(onSuccess: { all.append($0) })
        #expect(all == [[1, 2, 3], []])
        var sums: [Int] = []
        _ = Single.zip([Single.just(1), .just(2)]) { $0.reduce(0, +) }.subscribe(onSuccess: { sums.append($0) })
        _ = Single.zip([Single<Int>]()) { $0.count + 10 }.subscribe(onSuccess: { sums.append($0) })
        #expect(sums == [3, 10])
        var failure: String?
        _ = Single.zip(Single.just(1), Single<Int>.error(TestError("z"))).subscribe(onFailure: { failure = "\($0)" })
        #expect(failure == "TestError(z)")
    }

    @Test("A8 A11 value awaits the element; an error is thrown")
    func asyncValue() async throws {
        #expect(try await Single.just(3).value == 3)
        await #expect(throws: TestError("v")) { try await Single<Int>.error(TestError("v")).value }
        #expect(try await Maybe<Int>.empty().value == nil)
        #expect(try await Maybe.just(2).value == 2)
        try await Completable.empty().value
        await #expect(throws: TestError("c")) { try await Completable.error(TestError("c")).value }
    }

    @Test("A11 an error nobody handles is reported, never a crash")
    func unhandled() {
        let collected = DiagnosticsCollector()
        defer { collected.stop() }
        _ = Single<Int>.error(TestError("unhandled-single")).subscribe(onSuccess: { _ in })
        #expect(collected.matching("unhandled-single").count == 1)
    }
}

extension SingleTests {
    @Test("A11 Single.filter gives a Maybe; Single.timer and Maybe.timer succeed with 0 after the delay")
    func filterAndTimer() {
        var log: [String] = []
        _ = Single.just(3).filter { $0 > 2 }.subscribe(onSuccess: { log.append("success \($0)") }, onCompleted: { log.append("empty") })
        _ = Single.just(1).filter { $0 > 2 }.subscribe(onSuccess: { log.append("success \($0)") }, onCompleted: { log.append("empty") })
        #expect(log == ["success 3", "empty"])
        #expect(scheduler.start { Single<Int>.timer(.seconds(2), scheduler: scheduler) }.events == [.next(202, 0), .completed(202)])
        let maybeClock = TestScheduler(initialClock: 0)
        #expect(maybeClock.start { Maybe<Int>.timer(.seconds(3), scheduler: maybeClock) }.events == [.next(203, 0), .completed(203)])
    }
}
