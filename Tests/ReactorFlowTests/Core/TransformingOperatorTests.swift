import Foundation
import ReactorFlow
import ReactorFlowTesting
import Testing

@Suite("Transforming and filtering operators")
struct TransformingOperatorTests {
    let scheduler = TestScheduler(resolution: .milliseconds(1))

    @Test func mapTransformsAndTurnsThrowsIntoErrors() {
        let source = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .next(230, 3), .completed(240)])
        let results = scheduler.start { source.map { value -> Int in
            if value == 3 { throw TestError() }
            return value * 10
        } }
        #expect(results.events == [.next(210, 10), .next(220, 20), .error(230, TestError())])
        #expect(source.subscriptions == [SubscriptionRecord(200, 230)])
    }

    /// Single-source operators in a row share one subscription to their source (they fuse): each subscription
    /// still has its own operator state, an operator in the middle that ends the stream disposes the source, and
    /// the operators after one that failed see nothing more.
    @Test("A1 a chain of single-source operators: state per subscription, a middle end disposes the source, nothing after a failure")
    func chainedSingleSourceOperators() {
        let subject = PublishSubject<Int>()
        var laterStage: [Int] = []
        let chain = subject.map { $0 * 2 }.scan(0, accumulator: +).take(3).map { value -> Int in
            laterStage.append(value)
            return value + 1
        }
        let (first, _) = chain.log()
        subject.onNext(1)
        let (second, _) = chain.log()
        #expect(subject.hasObservers)
        subject.onNext(2)
        subject.onNext(3) // the first subscription's third element: take ends it and disposes its source subscription
        subject.onNext(4)
        #expect(first.events == [.next(3), .next(7), .next(13), .completed])
        #expect(second.events == [.next(5), .next(11), .next(19), .completed])
        #expect(laterStage == [2, 6, 4, 12, 10, 18])
        #expect(!subject.hasObservers)

        let failing = PublishSubject<Int>()
        var afterFailure: [Int] = []
        let (log, _) = failing.map { value -> Int in
            if value == 2 { throw TestError() }
            return value
        }.filter { afterFailure.append($0); return true }.log()
        failing.onNext(1)
        failing.onNext(2)
        failing.onNext(3)
        #expect(log.events == [.next(1), .error(TestError())])
        #expect(afterFailure == [1])
        #expect(!failing.hasObservers)
    }

    /// `subscribe(onNext:)` alone over a chain on a subject: the chain hands its elements to `onNext` directly, and
    /// nothing gets through once the chain ended itself.
    @Test("A1 a chain over a subject with onNext alone delivers its elements and nothing after its own end")
    func chainOverSubjectWithOnNextAlone() {
        let subject = PublishSubject<Int>()
        var received: [Int] = []
        let subscription = subject.map { $0 * 10 }.distinctUntilChanged().take(2).subscribe(onNext: { value in
            received.append(value)
            subject.onNext(value) // reentrant: after the second element it reaches an ended chain
        })
        subject.onNext(1)
        subject.onNext(2)
        subject.onNext(3)
        #expect(received == [10, 100])
        #expect(!subject.hasObservers)
        subscription.dispose()
    }

    /// A chain over a subject that another operator subscribes to (here `merge`, with a sink at the chain's end)
    /// takes the subject's elements as they are: reentrant sends wait their turn, a chain that ends itself stops
    /// the subject's subscription, and the subject's own end goes through the same sink.
    @Test("A1 and A2 a chain over a subject inside another operator keeps the order of reentrant sends and ends once")
    func chainOverSubjectInsideAnotherOperator() {
        let subject = PublishSubject<Int>()
        var received: [Event<Int>] = []
        let merged = Observable.merge(subject.map { $0 * 10 }.filter { $0 != 30 }).subscribe { event in
            received.append(event)
            if event == .next(10) { subject.onNext(2) } // reentrant: after 10 has reached everyone
        }
        subject.onNext(1)
        subject.onNext(3)
        subject.onNext(4)
        subject.onCompleted()
        subject.onNext(5)
        #expect(received == [.next(10), .next(20), .next(40), .completed])
        merged.dispose()

        let other = PublishSubject<Int>()
        var taken: [Event<Int>] = []
        let limited = Observable.merge(other.map { $0 + 1 }.take(2)).subscribe { taken.append($0) }
        other.onNext(1)
        other.onNext(2)
        #expect(!other.hasObservers) // the chain's own end let go of the subject
        other.onNext(3)
        #expect(taken == [.next(2), .next(3), .completed])
        limited.dispose()
    }

    /// A user's subscription to operators over a subject is the subject's own subscription (no sink between):
    /// whichever end comes first — the chain's own, the subject's, or a dispose — ends it once, calls `onDisposed`
    /// once after the terminal handler, and lets nothing through afterwards, even an element sent from inside
    /// that handler; an end during the subject's replay ends it before `subscribe` returns.
    @Test("A1 and A3 operators subscribed over a subject end their subscription once, however they end")
    func chainOverSubjectEndsOnce() {
        let subject = PublishSubject<Int>()
        var calls: [String] = []
        let taken = subject.map { $0 * 10 }.take(2).subscribe(
            onNext: { value in
                calls.append("next \(value)")
                if value == 20 { subject.onNext(3) } // reentrant: queued behind the completion, then dropped
            },
            onCompleted: {
                calls.append("completed")
                subject.onNext(4)
            },
            onDisposed: { calls.append("disposed") }
        )
        subject.onNext(1)
        subject.onNext(2)
        subject.onNext(5)
        #expect(calls == ["next 10", "next 20", "completed", "disposed"])
        #expect(!subject.hasObservers)
        taken.dispose()
        #expect(calls == ["next 10", "next 20", "completed", "disposed"])

        let ending = PublishSubject<Int>()
        var endingCalls: [String] = []
        let mapped = ending.map { $0 + 1 }.subscribe(
            onNext: { endingCalls.append("next \($0)") },
            onCompleted: { endingCalls.append("completed") },
            onDisposed: { endingCalls.append("disposed") }
        )
        ending.onNext(1)
        ending.onCompleted()
        mapped.dispose()
        #expect(endingCalls == ["next 2", "completed", "disposed"])

        let disposed = PublishSubject<Int>()
        var disposedCalls: [String] = []
        let filtered = disposed.filter { $0 > 0 }.subscribe(
            onNext: { disposedCalls.append("next \($0)") },
            onDisposed: { disposedCalls.append("disposed") }
        )
        disposed.onNext(1)
        filtered.dispose()
        filtered.dispose()
        disposed.onNext(2)
        #expect(disposedCalls == ["next 1", "disposed"])
        #expect(!disposed.hasObservers)

        let replaying = BehaviorSubject(value: 7)
        var replayCalls: [String] = []
        _ = replaying.map { $0 * 2 }.take(1).subscribe(
            onNext: { replayCalls.append("next \($0)") },
            onCompleted: { replayCalls.append("completed") },
            onDisposed: { replayCalls.append("disposed") }
        )
        #expect(replayCalls == ["next 14", "completed", "disposed"])
        #expect(!replaying.hasObservers)
        replaying.onNext(8)
        #expect(replayCalls == ["next 14", "completed", "disposed"])
    }

    @Test func compactMapDropsNil() {
        let (log, _) = Observable.of("1", "x", "3").compactMap { Int($0) }.log()
        #expect(log.events == [.next(1), .next(3), .completed])
        let (failing, _) = Observable.of(1).compactMap { _ -> Int? in throw TestError() }.log()
        #expect(failing.events == [.error(TestError())])
    }

    @Test func filterKeepsMatchingElements() {
        let (log, _) = Observable.of(1, 2, 3, 4).filter { $0.isMultiple(of: 2) }.log()
        #expect(log.events == [.next(2), .next(4), .completed])
        let (failing, _) = Observable.of(1).filter { _ in throw TestError() }.log()
        #expect(failing.events == [.error(TestError())])
        #expect(Observable.of(1, 2).ignoreElements().log().0.events == [.completed])
    }

    @Test func scanAccumulates() {
        #expect(Observable.of(1, 2, 3).scan(0, accumulator: +).log().0.events == [.next(1), .next(3), .next(6), .completed])
        #expect(Observable.of("a", "b").scan(into: [String]()) { $0.append($1) }.log().0.elements == [["a"], ["a", "b"]])
        let (failing, _) = Observable.of(1, 2).scan(0) { _, value in
            if value == 2 { throw TestError() }
            return value
        }.log()
        #expect(failing.events == [.next(1), .error(TestError())])
    }

    @Test func startWithPrependsElements() {
        #expect(Observable.of(3).startWith(1, 2).log().0.events == [.next(1), .next(2), .next(3), .completed])
        let (log, _) = Observable.of(3).startWith(1, 2).take(1).log()
        #expect(log.events == [.next(1), .completed])
    }

    @Test func distinctUntilChangedInAllThreeForms() {
        #expect(Observable.of(1, 1, 2, 2, 1).distinctUntilChanged().log().0.elements == [1, 2, 1])
        #expect(Observable.of("a", "A", "b").distinctUntilChanged { $0.lowercased() }.log().0.elements == ["a", "b"])
        #expect(Observable.of("a", "A", "b").distinctUntilChanged { $0.lowercased() == $1.lowercased() }.log().0.elements == ["a", "b"])
        struct Item: Equatable { var id: Int; var name: String }
        let items = Observable.of(Item(id: 1, name: "a"), Item(id: 1, name: "b"), Item(id: 2, name: "b"))
        #expect(items.distinctUntilChanged(at: \.id).log().0.elements.map(\.name) == ["a", "b"])
        // Nested, array-valued and computed key paths each compare just what they name.
        struct Row { var item: Item; var names: [String]; var nameCount: Int { names.count } }
        let rows = Observable.of(Row(item: Item(id: 1, name: "a"), names: ["x"]), Row(item: Item(id: 2, name: "a"), names: ["y"]),
                                 Row(item: Item(id: 3, name: "b"), names: ["y"]), Row(item: Item(id: 4, name: "b"), names: ["y", "z"]))
        #expect(rows.distinctUntilChanged(at: \.item.name).log().0.elements.map(\.item.id) == [1, 3])
        #expect(rows.distinctUntilChanged(at: \.names).log().0.elements.map(\.item.id) == [1, 2, 4])
        #expect(rows.distinctUntilChanged(at: \.nameCount).log().0.elements.map(\.item.id) == [1, 4])
        let (failing, _) = Observable.of(1, 2).distinctUntilChanged { _, _ in throw TestError() }.log()
        #expect(failing.events == [.next(1), .error(TestError())])
    }

    @Test func takeCompletesAfterCountAndDisposesTheSource() {
        let source = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .next(230, 3)])
        let results = scheduler.start { source.take(2) }
        #expect(results.events == [.next(210, 1), .next(220, 2), .completed(220)])
        #expect(source.subscriptions == [SubscriptionRecord(200, 220)])
        #expect(Observable.of(1).take(0).log().0.events == [.completed])
    }

    @Test func takeUntilStopsWhenTheOtherEmits() {
        let source = scheduler.createHotObservable([.next(210, 1), .next(230, 2)])
        let trigger = scheduler.createHotObservable([.next(220, ())])
        let results = scheduler.start { source.take(until: trigger) }
        #expect(results.events == [.next(210, 1), .completed(220)])
        #expect(source.subscriptions == [SubscriptionRecord(200, 220)])
        #expect(trigger.subscriptions == [SubscriptionRecord(200, 220)])
    }

    @Test func takeUntilForwardsTheOthersErrorAndIgnoresItsCompletion() {
        let source = scheduler.createHotObservable([.next(210, 1), .next(240, 2)])
        let quiet = scheduler.createHotObservable([.completed(215, Int.self)])
        let failing = scheduler.createHotObservable([.error(230, TestError(), Int.self)])
        let results = scheduler.start { source.take(until: quiet).take(until: failing) }
        #expect(results.events == [.next(210, 1), .error(230, TestError())])
    }

    @Test func takeWhileExclusiveAndInclusive() {
        #expect(Observable.of(1, 2, 5, 1).take(while: { $0 < 3 }).log().0.events == [.next(1), .next(2), .completed])
        #expect(Observable.of(1, 5, 1).take(while: { $0 < 3 }, behavior: .inclusive).log().0.events == [.next(1), .next(5), .completed])
        #expect(Observable.of(1).take(while: { _ in throw TestError() }).log().0.events == [.error(TestError())])
    }

    @Test func skipAndSkipWhile() {
        #expect(Observable.of(1, 2, 3).skip(2).log().0.events == [.next(3), .completed])
        #expect(Observable.of(1, 2, 5, 1).skip(while: { $0 < 3 }).log().0.events == [.next(5), .next(1), .completed])
        #expect(Observable.of(1).skip(while: { _ in throw TestError() }).log().0.events == [.error(TestError())])
    }

    @Test func doRunsEverySideEffectInOrder() {
        var trace: [String] = []
        let (log, subscription) = Observable.of(1).do(
            onNext: { trace.append("next \($0)") },
            afterNext: { trace.append("after \($0)") },
            onError: { _ in trace.append("error") },
            onCompleted: { trace.append("completed") },
            onSubscribe: { trace.append("subscribe") },
            onSubscribed: { trace.append("subscribed") },
            onDispose: { trace.append("dispose") }
        ).log()
        subscription.dispose()
        #expect(log.events == [.next(1), .completed])
        #expect(trace == ["subscribe", "next 1", "after 1", "completed", "subscribed", "dispose"])

        var errors = 0
        let (failing, _) = Observable<Int>.error(TestError()).do(onError: { _ in errors += 1 }).log()
        #expect(failing.events == [.error(TestError())])
        #expect(errors == 1)
        #expect(Observable.of(1).do(onNext: { _ in throw TestError() }).log().0.events == [.error(TestError())])
    }

    @Test func debugPassesEventsThrough() {
        #expect(Observable.of(1).debug("test").log().0.events == [.next(1), .completed])
    }
}

@Suite("Error handling operators (A6)")
struct ErrorHandlingTests {
    @Test func catchSwitchesToTheFallback() {
        let (log, _) = Observable<Int>.concat(.just(1), .error(TestError())).catch { _ in .of(8, 9) }.log()
        #expect(log.events == [.next(1), .next(8), .next(9), .completed])
        let (rethrown, _) = Observable<Int>.error(TestError("a")).catch { _ in throw TestError("b") }.log()
        #expect(rethrown.events == [.error(TestError("b"))])
    }

    @Test func catchAndReturnEndsWithTheValue() {
        #expect(Observable<Int>.error(TestError()).catchAndReturn(0).log().0.events == [.next(0), .completed])
    }

    @Test func retrySubscribesAgainUpToTheCount() {
        let attempts = Counter()
        let flaky = Observable<Int>.create { observer in
            attempts.increment()
            observer.onNext(attempts.count)
            if attempts.count < 3 { observer.onError(TestError()) } else { observer.onCompleted() }
            return Disposables.create()
        }
        #expect(flaky.retry(5).log().0.events == [.next(1), .next(2), .next(3), .completed])

        let alwaysFails = Counter()
        let failing = Observable<Int>.deferred { alwaysFails.increment(); return .error(TestError()) }
        #expect(failing.retry(3).log().0.events == [.error(TestError())])
        #expect(alwaysFails.count == 3)
    }

    @Test func retryOfASynchronousFailureDoesNotOverflowTheStack() {
        let attempts = Counter()
        let failing = Observable<Int>.deferred { attempts.increment(); return .error(TestError()) }
        #expect(failing.retry(100_000).log().0.events == [.error(TestError())])
        #expect(attempts.count == 100_000)
    }

    @Test("A6 an error ends only the stream it travels in; a throwing closure becomes an error event")
    func anErrorEndsOnlyTheStreamItTravelsIn() {
        let subject = PublishSubject<Int>()
        let (failing, _) = subject.map { value -> Int in if value == 2 { throw TestError() }; return value }.log()
        let (healthy, _) = subject.log()
        subject.onNext(1)
        subject.onNext(2)
        subject.onNext(3)
        #expect(failing.events == [.next(1), .error(TestError())])
        #expect(healthy.events == [.next(1), .next(2), .next(3)])
    }
}
