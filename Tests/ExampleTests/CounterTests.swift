import CounterFeature
import ReactorFlow
import ReactorFlowTesting
import Testing

@Suite("Counter example")
struct CounterTests {
    @Test("an increase shows loading at once and changes the value after the delay")
    func increase() {
        let scheduler = TestScheduler(resolution: .milliseconds(1))
        let tester = ReactorTester(CounterReactor(delayScheduler: scheduler), scheduler: scheduler)
        tester.send(.increase) { $0.isLoading = true }
        tester.advance(by: .milliseconds(499))
        tester.advance(by: .milliseconds(1)) { $0.value = 1 }
        // The delayed change completes a tick after it arrives, as with RxSwift's `delay`; the flag clears then.
        tester.advance(by: .milliseconds(1)) { $0.isLoading = false }
        tester.send(.decrease) { $0.isLoading = true }
        tester.advance(by: .milliseconds(500)) { $0.value = 0 }
        tester.advance(by: .milliseconds(1)) { $0.isLoading = false }
        tester.finish()
    }

    @Test("every state, with its virtual time")
    func timeline() {
        let scheduler = TestScheduler(resolution: .milliseconds(1))
        let reactor = CounterReactor(delayScheduler: scheduler)
        let states = scheduler.record(reactor.state)
        reactor.action.onNext(.increase)
        reactor.action.onNext(.increase)
        scheduler.advance(by: .seconds(1))
        #expect(states.events == [
            .next(0, .init(value: 0, isLoading: false)),
            .next(0, .init(value: 0, isLoading: true)),
            .next(0, .init(value: 0, isLoading: true)),
            .next(500, .init(value: 1, isLoading: true)),
            .next(500, .init(value: 2, isLoading: true)),
            .next(501, .init(value: 2, isLoading: false)),
            .next(501, .init(value: 2, isLoading: false)),
        ])
    }
}
