import ReactorFlow
@testable import ReactorFlowTesting
import XCTest

/// ReactorFlowTesting from an XCTest suite, as many teams' suites are: recorded events compare with
/// `XCTAssertEqual`.
final class XCTestCompatibilityTests: XCTestCase {
    func testRecordedEventsCompareWithXCTAssertEqual() {
        let scheduler = TestScheduler(initialClock: 0)
        let hot = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(230)])
        let observer = scheduler.start { hot.map { $0 * 10 } }
        XCTAssertEqual(observer.events, [.next(210, 10), .next(220, 20), .completed(230)])
        XCTAssertEqual(hot.subscriptions, [Subscription(200, 230)], "the completion ends the subscription")
        XCTAssertEqual(observer.events.map(\.value.element), [10, 20, nil])
    }

    /// RxTest's helpers, as RxTest-based suites call them (rule D3).
    func testRxTestHelpers() {
        let scheduler = TestScheduler(initialClock: 0)
        let hot = scheduler.createHotObservable([.next(210, 2), .next(220, 3), .completed(230)])
        let observer = scheduler.start { hot.map { $0 + 1 } }
        XCTAssertEqual(observer.events, Recorded.events(.next(210, 3), .next(220, 4), .completed(230)))
        XCTAssertEqual(observer.events, Recorded.events([.next(210, 3), .next(220, 4), .completed(230)]))
        XCTAssertRecordedElements(observer.events, [3, 4])
        XCTAssertEqual(observer.events.map(\.value), [.next(3), .next(4), .completed])
        let optionals = scheduler.createColdObservable([.next(10, Int?.none), .next(20, 1)])
        XCTAssertEqual(optionals.recordedEvents, [.next(10, nil), .next(20, 1)])

        var singles: [SingleEvent<Int>] = []
        _ = Single.just(1).subscribe { singles.append($0) }
        _ = Single<Int>.error(TestFailure.boom).subscribe { singles.append($0) }
        XCTAssertEqual(singles, [.success(1), .failure(TestFailure.boom)])
        var maybes: [MaybeEvent<Int>] = []
        _ = Maybe.just(1).subscribe { maybes.append($0) }
        _ = Maybe<Int>.empty().subscribe { maybes.append($0) }
        XCTAssertEqual(maybes, [.success(1), .completed])
        var completables: [CompletableEvent] = []
        _ = Completable.empty().subscribe { completables.append($0) }
        _ = Completable.error(TestFailure.boom).subscribe { completables.append($0) }
        XCTAssertEqual(completables, [.completed, .error(TestFailure.boom)])
    }

    /// What a failing assertion reports: both sides and the first index where they differ.
    /// A base-class helper as RxTest suites write it, typed by RxTest's superclass (rule D3).
    func executeEvents(on scheduler: VirtualTimeScheduler<TestSchedulerVirtualTimeConverter>,
                       advanceTo futureTime: VirtualTimeScheduler<TestSchedulerVirtualTimeConverter>.VirtualTime = 10) {
        scheduler.start()
        scheduler.advanceTo(futureTime)
        scheduler.stop()
    }

    func testAHelperTypedByTheVirtualTimeSchedulerTakesATestScheduler() {
        let scheduler = TestScheduler(initialClock: 0)
        let relay = PublishRelay<Int>()
        let observer = scheduler.createObserver(Int.self)
        let bag = DisposeBag()
        relay.bind(to: observer).disposed(by: bag)
        scheduler.createHotObservable([.next(3, 30), .next(12, 120)]).bind(to: relay).disposed(by: bag)
        executeEvents(on: scheduler)
        XCTAssertEqual(observer.events, [.next(3, 30), .next(12, 120)])
        XCTAssertEqual(scheduler.clock, 10, "advanceTo sets the clock back after start() ran to 12, as RxTest's does")
    }

    func testAFailingComparisonReportsBothSidesAndWhereTheyDiffer() {
        let actual: [Recorded<Event<Int>>] = [.next(210, 3), .next(220, 4)]
        XCTAssertNil(eventsDifference(actual, actual))
        XCTAssertEqual(eventsDifference(actual, [.next(210, 3), .next(220, 5), .completed(230)]), """
            the events differ from index 1 on:
            actual:
              [0] next(3) @ 210
              [1] next(4) @ 220
            expected:
              [0] next(3) @ 210
              [1] next(5) @ 220
              [2] completed @ 230
            """)
        XCTAssertEqual(eventsDifference([1, 2], [1, 2, 3]), """
            the events differ from index 2 on:
            actual:
              [0] 1
              [1] 2
            expected:
              [0] 1
              [1] 2
              [2] 3
            """)
    }

    /// From a file that imports XCTest and not Testing: the testing kit's calls compile, since their call-site
    /// defaults need no macro, and the tester asserts each step (rule D3).
    func testTheTestingKitFromAnXCTestFile() {
        let scheduler = TestScheduler(initialClock: 0)
        var fired: [TestTime] = []
        scheduler.scheduleAt(10) { fired.append(scheduler.clock) }
        scheduler.start()
        scheduler.scheduleAt(20) { fired.append(scheduler.clock) }
        scheduler.run()
        XCTAssertEqual(fired, [10, 20])

        let clock = TestScheduler(resolution: .milliseconds(1))
        let tester = ReactorTester(DelayedCounterReactor(scheduler: clock), scheduler: clock)
        tester.send(.increase) { $0.isLoading = true }
        tester.advance(by: .milliseconds(1_001)) {
            $0.value = 1
            $0.isLoading = false
            $0.scores["total"] = 1
        }
        tester.send(.greet("Bo"))
        tester.expectPulse(\.$message, "Hello, Bo")
        tester.finish()
        XCTAssertEqual(tester.states.count, 5)
    }

    func testAReactorUnderTheVirtualClock() {
        let scheduler = TestScheduler(initialClock: 0)
        let reactor = StopwatchReactor(scheduler: scheduler)
        let bag = DisposeBag()
        scheduler.createHotObservable([.next(10, StopwatchReactor.Action.start), .next(13, .stop)])
            .subscribe(reactor.action).disposed(by: bag)
        let states = scheduler.start(created: 0, subscribed: 0, disposed: 100) { reactor.state }
        XCTAssertEqual(states.events, [.next(0, 0), .next(11, 1), .next(12, 2)])
    }
}

private enum TestFailure: Error { case boom }

/// RxBlocking's operators on XCTest's main thread (rule D5): the wait turns the main run loop, so a stream that
/// needs the main queue gets it.
final class BlockingOnMainThreadTests: XCTestCase {
    private let background = ConcurrentDispatchQueueScheduler(qos: .default)

    func testAStreamOnTheMainQueueIsWaitedFor() throws {
        XCTAssertTrue(Thread.isMainThread)
        let stream = Observable.of(1, 2).subscribe(on: background).observe(on: MainScheduler.instance)
        XCTAssertEqual(try stream.toBlocking(timeout: 60).toArray(), [1, 2])
        XCTAssertEqual(try stream.toBlocking(timeout: 60).last(), 2)
        XCTAssertEqual(try Observable.just(42, scheduler: MainScheduler.instance).toBlocking(timeout: 60).toArray(), [42])
    }

    func testAStreamEndingOnAnotherThreadWakesTheMainThread() throws {
        XCTAssertEqual(try Observable.just(3, scheduler: background).toBlocking().single(), 3)
    }

    func testATimeoutOnTheMainThread() {
        XCTAssertThrowsError(try Observable<Int>.never().toBlocking(timeout: 0).first()) { error in
            XCTAssertEqual(error as? RxError, .timeout)
        }
    }
}
