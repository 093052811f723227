import Foundation
import ReactorFlow
import ReactorFlowTesting
import Testing

@Suite("Creation (A4: cold by default)")
struct CreationTests {
    @Test func justEmitsOneElementThenCompletes() {
        let (log, _) = Observable.just(42).log()
        #expect(log.events == [.next(42), .completed])
    }

    @Test func ofAndFromEmitInOrder() {
        #expect(Observable.of(1, 2, 3).log().0.events == [.next(1), .next(2), .next(3), .completed])
        #expect(Observable.from(["a", "b"]).log().0.events == [.next("a"), .next("b"), .completed])
    }

    @Test func fromStopsIteratingWhenTheSubscriberLeaves() {
        let iterated = Counter()
        let source = Observable.from((1...1_000_000).lazy.map { value -> Int in iterated.increment(); return value })
        let (log, _) = source.take(3).log()
        #expect(log.events == [.next(1), .next(2), .next(3), .completed])
        #expect(iterated.count == 3)
    }

    @Test func emptyNeverAndError() {
        #expect(Observable<Int>.empty().log().0.events == [.completed])
        #expect(Observable<Int>.never().log().0.events.isEmpty)
        #expect(Observable<Int>.error(TestError()).log().0.events == [.error(TestError())])
    }

    @Test("A1 create enforces the grammar: nothing after a terminal event")
    func createEnforcesTheGrammar() {
        let source = Observable<Int>.create { observer in
            observer.onNext(1)
            observer.onCompleted()
            observer.onNext(2)
            observer.onError(TestError())
            return Disposables.create()
        }
        #expect(source.log().0.events == [.next(1), .completed])
    }

    @Test func createRunsPerSubscription() {
        let subscriptions = Counter()
        let source = Observable<Int>.create { observer in
            subscriptions.increment()
            observer.onNext(subscriptions.count)
            return Disposables.create()
        }
        let (first, firstSubscription) = source.log()
        let (second, secondSubscription) = source.log()
        #expect(first.elements == [1])
        #expect(second.elements == [2])
        firstSubscription.dispose() // the source never ends
        secondSubscription.dispose()
    }

    @Test func createDisposesItsResourceOnTerminalAndOnDispose() {
        let disposed = Counter()
        let finite = Observable<Int>.create { observer in
            observer.onCompleted()
            return Disposables.create { disposed.increment() }
        }
        _ = finite.subscribe()
        #expect(disposed.count == 1)

        let infinite = Observable<Int>.create { _ in Disposables.create { disposed.increment() } }
        let subscription = infinite.subscribe()
        subscription.dispose()
        subscription.dispose()
        #expect(disposed.count == 2)
    }

    @Test func deferredCallsTheFactoryPerSubscriptionAndTurnsThrowsIntoErrors() {
        let calls = Counter()
        let source = Observable.deferred { () -> Observable<Int> in
            calls.increment()
            return .just(calls.count)
        }
        let (first, firstSubscription) = source.log()
        let (second, secondSubscription) = source.log()
        #expect(first.elements == [1])
        #expect(second.elements == [2])
        firstSubscription.dispose() // the source never ends
        secondSubscription.dispose()
        let failing = Observable<Int>.deferred { throw TestError() }
        #expect(failing.log().0.events == [.error(TestError())])
    }

    @Test func timerAndIntervalRunInVirtualTime() {
        let scheduler = TestScheduler(resolution: .milliseconds(1))
        let once = scheduler.start { Observable<Int>.timer(.milliseconds(50), scheduler: scheduler) }
        #expect(once.events == [.next(250, 0), .completed(250)])

        let ticking = TestScheduler(resolution: .milliseconds(1))
        let periodic = ticking.start(disposed: 550) { Observable<Int>.interval(.milliseconds(100), scheduler: ticking) }
        #expect(periodic.events == [.next(300, 0), .next(400, 1), .next(500, 2)])

        let delayedPeriodic = TestScheduler(resolution: .milliseconds(1))
        let timerWithPeriod = delayedPeriodic.start(disposed: 400) { Observable<Int>.timer(.milliseconds(10), period: .milliseconds(100), scheduler: delayedPeriodic) }
        #expect(timerWithPeriod.events == [.next(210, 0), .next(310, 1)])
    }
}
