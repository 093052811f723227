import Foundation
import ReactorFlow
import ReactorFlowTesting
import Testing

/// A counter whose increments land after a delay, with a loading flag, a message pulse and nested state.
final class DelayedCounterReactor: Reactor {
    enum Action: Equatable {
        case increase
        case greet(String)
    }

    enum Mutation {
        case increaseValue
        case setLoading(Bool)
        case greet(String)
    }

    struct Profile: Equatable {
        var name = "Ann"
        var tags: [String] = []
    }

    struct State: Equatable {
        var value = 0
        var isLoading = false
        var profile = Profile()
        var scores: [String: Int] = [:]
        @Pulse var message: String?
    }

    let initialState = State()
    let reactorStorage = ReactorStorage()
    let scheduler: TestScheduler

    init(scheduler: TestScheduler) {
        self.scheduler = scheduler
    }

    func mutate(action: Action) -> Observable<Mutation> {
        switch action {
        case .increase:
            return .concat(.just(.setLoading(true)),
                           Observable.just(.increaseValue).delay(.seconds(1), scheduler: scheduler),
                           .just(.setLoading(false)))
        case .greet(let name):
            return .just(.greet(name))
        }
    }

    func reduce(state: State, mutation: Mutation) -> State {
        var state = state
        switch mutation {
        case .increaseValue:
            state.value += 1
            state.scores["total", default: 0] += 1
        case .setLoading(let isLoading):
            state.isLoading = isLoading
        case .greet(let name):
            state.message = "Hello, \(name)"
        }
        return state
    }
}

@Suite("ReactorTester")
struct ReactorTesterTests {
    @Test func exhaustiveHappyPath() {
        let scheduler = TestScheduler(resolution: .milliseconds(1))
        let tester = ReactorTester(DelayedCounterReactor(scheduler: scheduler), scheduler: scheduler)
        tester.send(.increase) { $0.isLoading = true }
        tester.advance(by: .milliseconds(999))
        tester.advance(by: .milliseconds(1)) {
            $0.value = 1
            $0.scores["total"] = 1
        }
        // The delayed `just` completes a tick after its element (RxSwift's `delay`), and the `concat` goes on then.
        tester.advance(by: .milliseconds(1)) { $0.isLoading = false }
        tester.send(.greet("Bo"))
        tester.expectPulse(\.$message, "Hello, Bo")
        tester.send(.greet("Bo"))
        tester.expectPulse(\.$message, "Hello, Bo")
        tester.finish()
        #expect(tester.states.count == 6)
    }

    @Test func aWrongExpectationNamesOnlyTheDifferingFieldsAtTheStepsLine() {
        let scheduler = TestScheduler(resolution: .milliseconds(1))
        let tester = ReactorTester(DelayedCounterReactor(scheduler: scheduler), scheduler: scheduler)
        let line = #line + 2
        withKnownIssue {
            tester.send(.increase) { $0.isLoading = false; $0.value = 5 }
        } matching: { issue in
            let text = String(describing: issue)
            return text.contains("isLoading: expected false, got true")
                && text.contains("value: expected 5, got 0")
                && !text.contains("profile")
                && issue.sourceLocation?.line == line
        }
    }

    @Test func nestedArraysAndDictionariesAreDiffedByPath() {
        typealias State = DelayedCounterReactor.State
        var expected = State()
        expected.profile.tags = ["a", "b"]
        expected.scores = ["x": 1]
        var actual = State()
        actual.profile.tags = ["a", "c", "d"]
        actual.scores = ["x": 2, "y": 3]
        actual.message = "ignored: pulses are events"
        #expect(StateDiff.lines(expected: expected, actual: actual) == [
            "profile.tags[1]: expected \"b\", got \"c\"",
            "profile.tags: expected 2 elements, got 3",
            "scores[x]: expected 1, got 2",
            "scores[y]: expected nothing, got 3",
        ])
        enum Phase: Equatable { case idle, loading(progress: Int) }
        #expect(StateDiff.lines(expected: Phase.loading(progress: 1), actual: Phase.loading(progress: 2)) == ["loading.progress: expected 1, got 2"])
        #expect(StateDiff.lines(expected: Phase.idle, actual: Phase.loading(progress: 2)) == ["value: expected idle, got loading(progress: 2)"])
        #expect(StateDiff.lines(expected: Optional<Int>.none as Any, actual: Optional(3) as Any) == ["value: expected nil, got 3"])
        #expect(StateDiff.lines(expected: State(), actual: State()).isEmpty)
    }

    @Test func aMissingStepIsReportedInExhaustiveMode() {
        let scheduler = TestScheduler(resolution: .milliseconds(1))
        let tester = ReactorTester(DelayedCounterReactor(scheduler: scheduler), scheduler: scheduler)
        withKnownIssue {
            tester.send(.increase)
        } matching: { String(describing: $0).contains("isLoading: expected false, got true") }
    }

    @Test func finishReportsUnclaimedPulsesAndRunningWork() {
        let scheduler = TestScheduler(resolution: .milliseconds(1))
        let tester = ReactorTester(DelayedCounterReactor(scheduler: scheduler), scheduler: scheduler)
        tester.send(.greet("Cy"))
        tester.send(.increase) { $0.isLoading = true }
        withKnownIssue {
            tester.finish()
        } matching: { issue in
            let text = String(describing: issue)
            return text.contains("message: \"Hello, Cy\"") || text.contains("1 mutation stream(s) still running")
        }
    }

    @Test func aWrongPulseIsReported() {
        let scheduler = TestScheduler(resolution: .milliseconds(1))
        let tester = ReactorTester(DelayedCounterReactor(scheduler: scheduler), scheduler: scheduler)
        tester.send(.greet("Di"))
        withKnownIssue {
            tester.expectPulse(\.$message, "Hello, Ed")
        } matching: { String(describing: $0).contains("expected \"Hello, Ed\", got \"Hello, Di\"") }
        withKnownIssue {
            tester.expectPulse(\.$message, "Hello, Di")
        } matching: { String(describing: $0).contains("was not assigned") }
    }

    @Test func nonExhaustiveModeChecksOnlyWhatIsNamed() {
        let scheduler = TestScheduler(resolution: .milliseconds(1))
        let tester = ReactorTester(DelayedCounterReactor(scheduler: scheduler), scheduler: scheduler, exhaustivity: .off)
        tester.send(.increase)
        tester.advance(by: .seconds(1)) { $0.value = 1 }
        tester.send(.greet("Fi"))
        tester.finish()
        withKnownIssue {
            tester.send(.increase) { $0.value = 7 }
        } matching: { String(describing: $0).contains("value: expected 7, got 1") }
    }

    @Test func stubHelpersTakeOneLine() {
        let scheduler = TestScheduler(resolution: .milliseconds(1))
        let reactor = DelayedCounterReactor(scheduler: scheduler).stubbed(with: .init(value: 3))
        reactor.action.onNext(.increase)
        #expect(reactor.sentActions == [.increase])
        #expect(reactor.currentState.value == 3)
    }

    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
    @Test func firstWhereWaitsOnRealTime() async {
        let subject = BehaviorSubject(value: 1)
        DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(20)) { subject.onNext(2) }
        let value = await subject.first(where: { $0 == 2 }, timeout: .seconds(5))
        #expect(value == 2)
    }

    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
    @Test func firstWhereFailsClearlyOnTimeout() async {
        await withKnownIssue {
            _ = await Observable<Int>.never().first(where: { _ in true }, timeout: .milliseconds(20))
        } matching: { String(describing: $0).contains("no element matched within") }
    }

    @Test func hotAndColdObservablesAndTheRecorder() {
        let scheduler = TestScheduler(resolution: .milliseconds(1))
        let hot = scheduler.createHotObservable([.next(10, "early"), .next(30, "hot")])
        let cold = scheduler.createColdObservable([.next(5, "cold"), .completed(6)])
        scheduler.advance(to: 20)
        let bag = DisposeBag() // the hot subscription never ends: disposed with the bag
        let hotRecorder = scheduler.record(hot, disposedBy: bag)
        let coldRecorder = scheduler.record(cold, disposedBy: bag)
        scheduler.advance(to: 40)
        #expect(hotRecorder.events == [.next(30, "hot")])
        #expect(coldRecorder.events == [.next(25, "cold"), .completed(26)])
        #expect(cold.subscriptions == [SubscriptionRecord(20, 26)])
        #expect(hot.subscriptions == [SubscriptionRecord(20)])
    }

    @Test func runStopsOnEndlessWork() {
        let scheduler = TestScheduler(resolution: .milliseconds(1))
        let ticking = Observable<Int>.interval(.seconds(1), scheduler: scheduler).subscribe()
        withKnownIssue {
            scheduler.run(maxSteps: 10)
        } matching: { String(describing: $0).contains("reschedules forever") }
        ticking.dispose() // the timer and the scheduler's queue hold each other until then
    }
}
