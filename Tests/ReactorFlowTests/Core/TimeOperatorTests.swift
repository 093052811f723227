import Foundation
import ReactorFlow
import ReactorFlowTesting
import Testing

@Suite("Time-based operators on TestScheduler")
struct TimeOperatorTests {
    let scheduler = TestScheduler(resolution: .milliseconds(1))

    @Test func debounceEmitsAfterAQuietPeriod() {
        let source = scheduler.createHotObservable([
            .next(210, 1), .next(270, 2), .next(280, 3), .next(400, 4), .completed(420),
        ])
        let results = scheduler.start { source.debounce(.milliseconds(50), scheduler: self.scheduler) }
        #expect(results.events == [.next(260, 1), .next(330, 3), .next(420, 4), .completed(420)])
    }

    @Test func debounceDropsThePendingElementOnError() {
        let source = scheduler.createHotObservable([.next(210, 1), .error(220, TestError(), Int.self)])
        let results = scheduler.start { source.debounce(.milliseconds(50), scheduler: self.scheduler) }
        #expect(results.events == [.error(220, TestError())])
    }

    /// The pending element of `debounce` and `throttle(latest:)` may hold the last reference to the user's objects:
    /// replaced, it must die after the operator's lock, and what its deinitialisation sends comes after the element
    /// that replaced it.
    @Test("B12: a pending element debounce or throttle replaces dies outside the operator's lock")
    func replacedPendingElementsDieOutsideTheLock() {
        for useDebounce in [true, false] {
            // A source that sends straight to the operator: a subject would queue what the deinitialisation sends.
            var send: AnyObserver<DeinitPayload>?
            let source = Observable<DeinitPayload>.create { observer in
                send = observer
                return Disposables.create()
            }
            var received: [String] = []
            let timed = useDebounce
                ? source.debounce(.milliseconds(50), scheduler: scheduler)
                : source.throttle(.milliseconds(50), latest: true, scheduler: scheduler)
            let subscription = timed.subscribe(onNext: { received.append($0.name) })
            if !useDebounce { send?.onNext(DeinitPayload("first")) } // emitted at once; opens the window
            send?.onNext(DeinitPayload("A", onDeinit: { send?.onNext(DeinitPayload("C")) }))
            send?.onNext(DeinitPayload("B")) // replaces A: hangs if A dies under the lock, since its deinit sends C
            scheduler.advance(by: .milliseconds(100))
            #expect(received == (useDebounce ? ["C"] : ["first", "C"]))
            subscription.dispose()
        }
    }

    @Test func throttleLatestEmitsFirstAndTheNewestOfEachWindow() {
        let source = scheduler.createHotObservable([
            .next(210, 1), .next(220, 2), .next(230, 3), .next(320, 4), .next(500, 5), .completed(510),
        ])
        let results = scheduler.start { source.throttle(.milliseconds(100), scheduler: self.scheduler) }
        // 5 arrives 90 ticks after 4 was emitted, so it waits for that window to end at 510.
        #expect(results.events == [.next(210, 1), .next(310, 3), .next(410, 4), .next(510, 5), .completed(510)])
    }

    @Test func throttleWithoutLatestDropsElementsInsideTheWindow() {
        let source = scheduler.createHotObservable([
            .next(210, 1), .next(220, 2), .next(320, 3), .next(330, 4), .completed(340),
        ])
        let results = scheduler.start { source.throttle(.milliseconds(100), latest: false, scheduler: self.scheduler) }
        #expect(results.events == [.next(210, 1), .next(320, 3), .completed(340)])
    }

    @Test func throttleDelaysCompletionUntilThePendingElementIsOut() {
        let source = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(230)])
        let results = scheduler.start { source.throttle(.milliseconds(100), scheduler: self.scheduler) }
        #expect(results.events == [.next(210, 1), .next(310, 2), .completed(310)])
    }

    @Test func delayShiftsElementsAndCompletionButNotErrors() {
        let source = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(230)])
        let results = scheduler.start { source.delay(.milliseconds(100), scheduler: self.scheduler) }
        #expect(results.events == [.next(310, 1), .next(320, 2), .completed(330)])

        let failing = TestScheduler(resolution: .milliseconds(1))
        let errorSource = failing.createHotObservable([.next(210, 1), .error(220, TestError(), Int.self)])
        let failed = failing.start { errorSource.delay(.milliseconds(100), scheduler: failing) }
        #expect(failed.events == [.error(220, TestError())])
    }

    @Test func delayDisposedEarlyEmitsNothingMore() {
        let source = scheduler.createHotObservable([.next(210, 1), .next(220, 2)])
        let results = scheduler.start(disposed: 315) { source.delay(.milliseconds(100), scheduler: self.scheduler) }
        #expect(results.events == [.next(310, 1)])
        #expect(!scheduler.hasPendingWork)
    }

    @Test func timeoutFailsWhenNoElementComesInTime() {
        let source = scheduler.createHotObservable([.next(210, 1), .next(260, 2), .next(400, 3)])
        let results = scheduler.start { source.timeout(.milliseconds(100), scheduler: self.scheduler) }
        #expect(results.events == [.next(210, 1), .next(260, 2), .error(360, RxError.timeout)])
        #expect(source.subscriptions == [SubscriptionRecord(200, 360)])
    }

    @Test func timeoutCanSwitchToAFallback() {
        let source = scheduler.createHotObservable([.next(250, 1)])
        let results = scheduler.start { source.timeout(.milliseconds(20), other: Observable.just(9), scheduler: self.scheduler) }
        #expect(results.events == [.next(220, 9), .completed(220)])
    }

    @Test func observeOnDeliversOnTheScheduler() {
        let source = scheduler.createHotObservable([.next(210, 1), .completed(220)])
        let observer = scheduler.createObserver(Int.self)
        var subscription: Disposable?
        scheduler.scheduleAt(200) { subscription = source.observe(on: self.scheduler).subscribe(observer) }
        scheduler.advance(to: 300)
        // Each delivery is scheduled for now, which RxTest's processing delay runs one tick later.
        #expect(observer.events == [.next(211, 1), .completed(221)])
        subscription?.dispose()
    }

    @Test func subscribeOnSubscribesOnTheScheduler() {
        let source = scheduler.createColdObservable([.next(10, 1)])
        let observer = scheduler.createObserver(Int.self)
        let subscription = source.subscribe(on: scheduler).subscribe(observer)
        #expect(source.subscriptions.isEmpty)
        scheduler.advance(to: 50)
        // The subscription is scheduled for now: one tick later, with RxTest's processing delay.
        #expect(source.subscriptions == [Subscription(1)])
        #expect(observer.events == [.next(11, 1)])
        subscription.dispose()
        // The source is disposed on the scheduler too, a tick later.
        scheduler.advance(by: .milliseconds(1))
        #expect(source.subscriptions == [Subscription(1, 51)])
    }

    @Test("A7 subscribe(on:) also disposes its source on the scheduler, as RxSwift does; the subscriber hears nothing more from the moment it disposes")
    func subscribeOnDisposesOnTheScheduler() {
        let clock = TestScheduler(initialClock: 0)
        let endless = clock.createHotObservable([.next(300, 1), .next(1001, 3)])
        let observer = clock.start { endless.subscribe(on: clock) }
        // Disposed at 1000; the source, disposed a tick later on the scheduler, still sends 3 at 1001, which is dropped.
        #expect(observer.events == [.next(300, 1)])
        #expect(endless.subscriptions == [Subscription(201, 1001)])
    }

    @Test func testSchedulerRunsInTimeOrderAndCancels() {
        var order: [String] = []
        scheduler.scheduleAt(20) { order.append("b") }
        scheduler.scheduleAt(10) { order.append("a") }
        let cancelled = scheduler.scheduleAt(15) { order.append("x") }
        cancelled.dispose()
        scheduler.scheduleAt(20) { order.append("c") }
        scheduler.run()
        #expect(order == ["a", "b", "c"])
        #expect(scheduler.clock == 20)
        scheduler.advance(by: .seconds(1))
        #expect(scheduler.clock == 1020)
    }
}

@Suite("Sharing")
struct ShareTests {
    @Test func shareSubscribesOnceAndReplays() {
        let subscriptions = Counter()
        let subject = PublishSubject<Int>()
        let shared = subject.do(onSubscribe: { subscriptions.increment() }).share(replay: 1)
        let (first, firstSubscription) = shared.log()
        subject.onNext(1)
        let (second, secondSubscription) = shared.log()
        subject.onNext(2)
        #expect(first.elements == [1, 2])
        #expect(second.elements == [1, 2])
        #expect(subscriptions.count == 1)
        firstSubscription.dispose()
        secondSubscription.dispose()
        #expect(!subject.hasObservers)
        let (third, thirdSubscription) = shared.log()
        #expect(third.elements.isEmpty, "whileConnected starts a fresh buffer")
        #expect(subscriptions.count == 2)
        thirdSubscription.dispose()
    }

    @Test func shareForeverKeepsItsBuffer() {
        let subject = PublishSubject<Int>()
        let shared = subject.share(replay: 2, scope: .forever)
        let (_, subscription) = shared.log()
        subject.onNext(1)
        subject.onNext(2)
        subject.onNext(3)
        subscription.dispose()
        let (late, lateSubscription) = shared.log()
        #expect(late.elements == [2, 3])
        lateSubscription.dispose()
    }

    @Test func shareWhileConnectedReconnectsAfterCompletion() {
        let runs = Counter()
        let source = Observable<Int>.deferred { runs.increment(); return .just(runs.count) }.share(replay: 1)
        #expect(source.log().0.events == [.next(1), .completed])
        #expect(source.log().0.events == [.next(2), .completed])
    }

    @Test func replayAndPublishWaitForConnect() {
        let subject = PublishSubject<Int>()
        let replayed = subject.replay(1)
        let (early, earlySubscription) = replayed.log()
        subject.onNext(0)
        let connection = replayed.connect()
        subject.onNext(1)
        #expect(early.elements == [1])
        let (late, lateSubscription) = replayed.log()
        #expect(late.elements == [1])
        connection.dispose()
        subject.onNext(2)
        #expect(early.elements == [1])
        earlySubscription.dispose() // the replay subject never ends: they hold each other until then
        lateSubscription.dispose()

        let published = Observable.of(1, 2).publish()
        let (log, _) = published.log()
        _ = published.connect()
        #expect(log.events == [.next(1), .next(2), .completed])
    }

    @Test func refCountConnectsAndDisconnects() {
        let subject = PublishSubject<Int>()
        let counted = subject.publish().refCount()
        #expect(!subject.hasObservers)
        let (log, subscription) = counted.log()
        #expect(subject.hasObservers)
        subject.onNext(1)
        subscription.dispose()
        #expect(!subject.hasObservers)
        #expect(log.elements == [1])
    }

    /// As RxSwift's: the connection ends before the source's end is delivered, so a subscriber that comes from the
    /// end's handler starts a new connection (`.whileConnected`); a subscriber that the shared buffer ends at once
    /// connects nothing (`.forever`); `publish().refCount()` has a new subject for each connection, so a late
    /// subscriber connects again.
    @Test("A4 share and refCount after the source ended: a new connection from the end's handler, none for a subscriber ended at once")
    func shareAfterTheSourceEnded() {
        let clock = TestScheduler(initialClock: 0)
        let source = clock.createHotObservable([.next(210, 1), .completed(230), .next(240, 2), .next(520, 3)])
        let shared = source.share(replay: 1)
        let first = clock.createObserver(Int.self)
        let again = clock.createObserver(Int.self)
        let later = clock.createObserver(Int.self)
        var subscriptions: [Disposable] = []
        clock.scheduleAt(200) {
            subscriptions.append(shared.subscribe { event in
                first.on(event)
                if event.isCompleted { subscriptions.append(shared.subscribe(again)) }
            })
        }
        clock.scheduleAt(300) { subscriptions.forEach { $0.dispose() } }
        clock.scheduleAt(500) { subscriptions.append(shared.subscribe(later)) }
        clock.scheduleAt(600) { subscriptions.forEach { $0.dispose() } }
        clock.start()
        #expect(first.events == [.next(210, 1), .completed(230)])
        #expect(again.events == [.next(240, 2)])
        #expect(later.events == [.next(520, 3)])
        #expect(source.subscriptions == [Subscription(200, 230), Subscription(230, 300), Subscription(500, 600)])

        let foreverClock = TestScheduler(initialClock: 0)
        let ending = foreverClock.createHotObservable([.next(210, 1), .completed(230)])
        let forever = ending.share(replay: 1, scope: .forever)
        let counted = ending.publish().refCount()
        let foreverLate = foreverClock.createObserver(Int.self)
        let countedLate = foreverClock.createObserver(Int.self)
        foreverClock.scheduleAt(200) {
            _ = forever.subscribe { _ in }
            _ = counted.subscribe { _ in }
        }
        var late: [Disposable] = []
        foreverClock.scheduleAt(500) {
            late.append(forever.subscribe(foreverLate))
            late.append(counted.subscribe(countedLate))
        }
        foreverClock.start()
        #expect(foreverLate.events == [.next(500, 1), .completed(500)])
        #expect(countedLate.events == [])
        #expect(ending.subscriptions == [Subscription(200, 230), Subscription(200, 230), Subscription(500)])
        late.forEach { $0.dispose() } // the late connection to the hot source never ends on its own
    }
}
