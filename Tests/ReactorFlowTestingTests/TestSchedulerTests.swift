import Foundation
import ReactorFlow
import ReactorFlowTesting
import Testing

/// A stopwatch: `start` counts one per second until `stop`.
final class StopwatchReactor: Reactor {
    enum Action { case start, stop }
    typealias Mutation = Int
    typealias State = Int
    let initialState = 0
    let reactorStorage = ReactorStorage()
    let scheduler: SchedulerType

    init(scheduler: SchedulerType) { self.scheduler = scheduler }

    func mutate(action: Action) -> Observable<Int> {
        switch action {
        case .start:
            return Observable<Int>.interval(.seconds(1), scheduler: scheduler)
                .map { _ in 1 }
                .take(until: self.action.filter { $0 == .stop })
        case .stop:
            return .empty()
        }
    }

    func reduce(state: Int, mutation: Int) -> Int { state + mutation }
}

/// A counter of `Void` actions.
final class TapCounterReactor: Reactor {
    typealias Action = Void
    typealias State = Int
    let initialState = 0
    let reactorStorage = ReactorStorage()
    func reduce(state: Int, mutation: Void) -> Int { state + 1 }
}

struct TestSchedulerError: Error, Equatable {}

@Suite("D3 TestScheduler keeps RxTest's clock")
struct TestSchedulerTests {
    @Test("D3 one tick is one second by default: an interval of a second fires every tick")
    func oneSecondTicks() {
        let scheduler = TestScheduler(initialClock: 0)
        let observer = scheduler.start { Observable<Int>.interval(.seconds(1), scheduler: scheduler).take(3) }
        #expect(observer.events == [.next(201, 0), .next(202, 1), .next(203, 2), .completed(203)])
    }

    @Test("D3 resolution: says how long a tick is, in seconds or as an interval")
    func resolution() {
        for scheduler in [TestScheduler(initialClock: 0, resolution: 0.001), TestScheduler(resolution: .milliseconds(1))] {
            let observer = scheduler.start { Observable.just(7).delay(.milliseconds(30), scheduler: scheduler) }
            // The completion arrived with the element; `delay` sends it in its own action, a tick later (RxSwift's).
            #expect(observer.events == [.next(230, 7), .completed(231)])
        }
    }

    @Test("D3 work scheduled for now or the past runs one tick later; without the processing delay, at once")
    func processingDelay() {
        let scheduler = TestScheduler(initialClock: 0)
        var ran: [String: Int] = [:]
        scheduler.scheduleAt(10) {
            _ = scheduler.schedule { ran["now", default: 0] = scheduler.clock }
            _ = scheduler.scheduleRelative(.seconds(-5)) { ran["past", default: 0] = scheduler.clock }
            _ = scheduler.scheduleRelative(.seconds(3)) { ran["later", default: 0] = scheduler.clock }
            scheduler.scheduleAt(10) { ran["absolute", default: 0] = scheduler.clock }
        }
        scheduler.start()
        #expect(ran == ["now": 11, "past": 11, "later": 13, "absolute": 10])

        let immediate = TestScheduler(initialClock: 0, simulateProcessingDelay: false)
        var at: TestTime?
        immediate.scheduleAt(10) { _ = immediate.schedule { at = immediate.clock } }
        immediate.start()
        #expect(at == 10)
    }

    @Test("D3 RxTest's scheduleAbsoluteVirtual and scheduleRelativeVirtual: the state passed, at the time given as it is, cancellable, and what the action returned disposed with the result")
    func virtualTimeCalls() {
        let scheduler = TestScheduler(initialClock: 0)
        var ran: [(TestTime, String)] = []
        var released: [String] = []
        let absolute = scheduler.scheduleAbsoluteVirtual("absolute", time: 300) { name in
            ran.append((scheduler.clock, name))
            _ = scheduler.scheduleRelativeVirtual("relative", dueTime: 50) { name in
                ran.append((scheduler.clock, name))
                return Disposables.create()
            }
            _ = scheduler.scheduleAbsoluteVirtual("past", time: 100) { name in
                ran.append((scheduler.clock, name))
                return Disposables.create()
            }
            return Disposables.create { released.append(name) }
        }
        let cancelled = scheduler.scheduleRelativeVirtual("cancelled", dueTime: 200) { name in
            ran.append((scheduler.clock, name))
            return Disposables.create()
        }
        cancelled.dispose()
        scheduler.start()
        #expect(ran.map(\.0) == [300, 300, 350])
        #expect(ran.map(\.1) == ["absolute", "past", "relative"])
        #expect(released.isEmpty)
        absolute.dispose()
        #expect(released == ["absolute"])
    }

    @Test("D3 start() without a closure runs everything, moving the clock as far as needed; stop() ends it")
    func startRunsEverything() {
        let scheduler = TestScheduler(initialClock: 0)
        var order: [TestTime] = []
        for time in [300, 5, 40] { scheduler.scheduleAt(time) { order.append(scheduler.clock) } }
        scheduler.start()
        #expect(order == [5, 40, 300])
        #expect(scheduler.clock == 300)

        let stopping = TestScheduler(initialClock: 0)
        var ran: [TestTime] = []
        stopping.scheduleAt(1) { ran.append(1); stopping.stop() }
        stopping.scheduleAt(2) { ran.append(2) }
        stopping.start()
        #expect(ran == [1])
        stopping.start()
        #expect(ran == [1, 2])
    }

    @Test("D3 start(created:subscribed:disposed:) at time 0 records the first element at 0")
    func startAtZero() {
        let scheduler = TestScheduler(initialClock: 0)
        let relay = BehaviorRelay(value: "a")
        let observer = scheduler.start(created: 0, subscribed: 0, disposed: 1000) { relay.asObservable() }
        #expect(observer.events == [.next(0, "a")])
    }

    @Test("D3 a hot observable sends every recorded event to every observer, even after an error or a completion")
    func hotObservableKeepsSending() {
        let scheduler = TestScheduler(initialClock: 0)
        let hot = scheduler.createHotObservable([
            .next(100, 1), .error(200, TestSchedulerError()), .next(300, 3), .completed(400), .next(500, 5),
        ])
        let first = scheduler.createObserver(Int.self)
        let second = scheduler.createObserver(Int.self)
        let firstSubscription = hot.subscribe(first)
        scheduler.scheduleAt(250) { _ = hot.subscribe(second) }
        scheduler.scheduleAt(450) { firstSubscription.dispose() }
        scheduler.start()
        #expect(first.events == [.next(100, 1), .error(200, TestSchedulerError()), .next(300, 3), .completed(400)])
        #expect(second.events == [.next(300, 3), .completed(400), .next(500, 5)])
        #expect(hot.subscriptions == [Subscription(0, 450), Subscription(250)])
    }

    @Test("D3 a cold observable plays its script relative to each subscription")
    func coldObservable() {
        let scheduler = TestScheduler(initialClock: 0)
        let cold = scheduler.createColdObservable([.next(10, "a"), .completed(20)])
        let observer = scheduler.start { cold }
        #expect(observer.events == [.next(210, "a"), .completed(220)])
        #expect(cold.subscriptions == [Subscription(200, 220)], "the completion ends the subscription")
    }

    @Test("D3 subscribe(on:) over a test observable: its subscription ends when the operator's disposal reaches it, a tick after its end; after an operator, at its end")
    func subscribeOnEndsTheSubscriptionOnTheScheduler() {
        let scheduler = TestScheduler(initialClock: 0)
        let completing = scheduler.createHotObservable([.next(250, 1), .completed(300)])
        let completed = scheduler.start { completing.subscribe(on: scheduler) }
        #expect(completed.events == [.next(250, 1), .completed(300)])
        #expect(completing.subscriptions == [Subscription(201, 301)])

        let disposing = scheduler.createHotObservable([.next(1_250, 1), .completed(1_900)])
        let disposed = scheduler.start(created: 1_100, subscribed: 1_200, disposed: 1_280) { disposing.subscribe(on: scheduler) }
        #expect(disposed.events == [.next(1_250, 1)])
        #expect(disposing.subscriptions == [Subscription(1_201, 1_281)])

        let mapped = scheduler.createHotObservable([.next(2_250, 1), .completed(2_300)])
        let mappedObserver = scheduler.start(created: 2_100, subscribed: 2_200, disposed: 3_000) {
            mapped.map { $0 * 10 }.subscribe(on: scheduler)
        }
        #expect(mappedObserver.events == [.next(2_250, 10), .completed(2_300)])
        #expect(mapped.subscriptions == [Subscription(2_201, 2_300)], "map ends its source's subscription at its end")
    }

    @Test("B7b two hot action streams that fail and complete: the actions after them are still reduced")
    func actionStreamsThatEnd() {
        let scheduler = TestScheduler(initialClock: 0)
        let reactor = TapCounterReactor()
        let bag = DisposeBag()
        scheduler.createHotObservable([.next(100, ()), .next(200, ()), .error(300, TestSchedulerError()), .next(400, ())])
            .subscribe(reactor.action).disposed(by: bag)
        scheduler.createHotObservable([.completed(300), .next(500, ()), .next(600, ())])
            .subscribe(reactor.action).disposed(by: bag)
        let states = scheduler.start(created: 0, subscribed: 0, disposed: 1000) { reactor.state }
        #expect(states.events == [.next(0, 0), .next(100, 1), .next(200, 2), .next(400, 3), .next(500, 4), .next(600, 5)])
    }

    @Test("D3 a stopwatch counts seconds between start and stop, cancelled by take(until:)")
    func stopwatch() {
        let scheduler = TestScheduler(initialClock: 0)
        let reactor = StopwatchReactor(scheduler: scheduler)
        let bag = DisposeBag()
        scheduler.createHotObservable([.next(1, .start), .next(5, .stop), .next(6, .start), .next(9, .stop)])
            .subscribe(reactor.action).disposed(by: bag)
        let states = scheduler.start(created: 0, subscribed: 0, disposed: 1000) { reactor.state }
        #expect(states.events == [.next(0, 0), .next(2, 1), .next(3, 2), .next(4, 3), .next(7, 4), .next(8, 5)])
    }

    /// A helper as RxTest suites write it, typed by the superclass and its time type.
    private func runEvents(on scheduler: VirtualTimeScheduler<TestSchedulerVirtualTimeConverter>,
                           advanceTo futureTime: VirtualTimeScheduler<TestSchedulerVirtualTimeConverter>.VirtualTime) {
        scheduler.start()
        scheduler.advanceTo(futureTime)
        scheduler.stop()
    }

    @Test("D3 a TestScheduler is RxTest's VirtualTimeScheduler<TestSchedulerVirtualTimeConverter>: helpers typed by it take one, and it keeps the processing delay")
    func virtualTimeSchedulerSubclass() {
        let scheduler = TestScheduler(initialClock: 0)
        var ran: [(TestTime, String)] = []
        scheduler.scheduleAt(5) { ran.append((scheduler.clock, "at 5")) }
        _ = scheduler.scheduleRelative(.seconds(3)) { ran.append((scheduler.clock, "in 3 s")) }
        _ = scheduler.schedule { ran.append((scheduler.clock, "now")) }
        let base: VirtualTimeScheduler<TestSchedulerVirtualTimeConverter> = scheduler
        // Through the superclass, work for now still runs a tick later: `adjustScheduledTime` is TestScheduler's.
        _ = base.scheduleRelative(.seconds(0)) { ran.append((scheduler.clock, "base now")) }
        runEvents(on: scheduler, advanceTo: 10)
        #expect(ran.map(\.0) == [1, 1, 3, 5])
        #expect(ran.map(\.1) == ["now", "base now", "in 3 s", "at 5"])
        #expect(scheduler.clock == 10)
        #expect(scheduler.now == Date(timeIntervalSince1970: 10))
    }

    @Test("D3 advanceTo sets the clock even backwards, as RxTest's does; advance(to:) leaves it, and both run what is overdue")
    func advanceBackwards() {
        let scheduler = TestScheduler(initialClock: 0)
        scheduler.advanceTo(50)
        var ran: [TestTime] = []
        scheduler.scheduleAt(20) { ran.append(scheduler.clock) }
        scheduler.advanceTo(30)
        #expect(ran == [50]) // overdue: runs at once, and the clock never moves back while it runs
        #expect(scheduler.clock == 30)

        let keeping = TestScheduler(initialClock: 0)
        keeping.advance(to: 50)
        keeping.scheduleAt(20) { ran.append(keeping.clock) }
        keeping.advance(to: 30)
        #expect(ran == [50, 50])
        #expect(keeping.clock == 50)
    }

    @Test("D3 TestSchedulerVirtualTimeConverter counts ticks of the resolution, rounding half a tick up as RxTest does, and clamps what does not fit")
    func converter() {
        let milliseconds = TestSchedulerVirtualTimeConverter(resolution: 0.001)
        #expect(milliseconds.convertToVirtualTimeInterval(0.25) == 250)
        #expect(milliseconds.convertToVirtualTimeInterval(0.0004) == 0)
        #expect(milliseconds.convertToVirtualTimeInterval(0.0005) == 1)
        #expect(milliseconds.convertFromVirtualTimeInterval(1500) == 1.5)
        #expect(milliseconds.convertToVirtualTime(Date(timeIntervalSince1970: 2)) == 2000)
        #expect(milliseconds.convertFromVirtualTime(2000) == Date(timeIntervalSince1970: 2))
        #expect(milliseconds.offsetVirtualTime(40, offset: 2) == 42)
        #expect(milliseconds.offsetVirtualTime(.max, offset: 1) == .max)
        #expect(milliseconds.offsetVirtualTime(.min, offset: -1) == .min)
        #expect(milliseconds.compareVirtualTime(1, 2) == .lessThan)
        #expect(milliseconds.compareVirtualTime(2, 2) == .equal)
        #expect(milliseconds.compareVirtualTime(3, 2) == .greaterThan)
        #expect(milliseconds.convertToVirtualTimeInterval(.infinity) == .max)
        #expect(milliseconds.convertToVirtualTimeInterval(-.infinity) == .min)
        #expect(milliseconds.convertToVirtualTimeInterval(.nan) == 0)
        for resolution in [0, -1, Double.nan, .infinity] {
            #expect(TestSchedulerVirtualTimeConverter(resolution: resolution).resolution == 1)
            #expect(TestScheduler(resolution: resolution).ticks(.seconds(3)) == 3, "a meaningless resolution is a second")
        }
        #expect(TestScheduler(resolution: 1e-12).ticks(.nanoseconds(5)) == 5, "a tick lasts at least a nanosecond")
        for resolution in [RxTimeInterval.nanoseconds(0), .seconds(-2), .never] {
            #expect(TestScheduler(resolution: resolution).ticks(.seconds(3)) == 3, "a resolution that is not positive is a second")
        }
        #expect(TestScheduler(resolution: .nanoseconds(1)).ticks(.microseconds(2)) == 2_000)
    }

    @Test("D3 start() stops a run that reschedules forever and reports it at the caller's line; a run inside a run does nothing")
    func startStopsRunaway() {
        let scheduler = TestScheduler(initialClock: 0)
        // Work that schedules its next run a tick later, for ever, until `stopped` (cheaper per item than an interval).
        var stopped = false
        func tick() {
            guard !stopped else { return }
            scheduler.scheduleAt(scheduler.clock + 1, action: tick)
        }
        tick()
        let line = #line + 2
        withKnownIssue {
            scheduler.start()
        } matching: { issue in
            String(describing: issue).contains("stopped after 1000000 items") && issue.sourceLocation?.line == line
        }
        #expect(scheduler.clock == 1_000_000)
        #expect(scheduler.pendingWorkCount == 1)
        stopped = true
        scheduler.advance(byTicks: 1)
        #expect(!scheduler.hasPendingWork)

        var nested: [TestTime] = []
        scheduler.scheduleAt(1_000_005) {
            scheduler.start()
            scheduler.advanceTo(2_000_000)
            nested.append(scheduler.clock)
        }
        scheduler.scheduleAt(1_000_006) { nested.append(scheduler.clock) }
        scheduler.start()
        #expect(nested == [1_000_005, 1_000_006])
    }
}
