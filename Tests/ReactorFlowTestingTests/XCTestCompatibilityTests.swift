import ReactorFlow
import ReactorFlowTesting
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
