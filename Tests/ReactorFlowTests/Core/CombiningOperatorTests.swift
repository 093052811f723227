import Foundation
import ReactorFlow
import ReactorFlowTesting
import Testing

@Suite("Combining operators")
struct CombiningOperatorTests {
    let scheduler = TestScheduler(resolution: .milliseconds(1))

    @Test func mergeInterleavesAndCompletesWhenAllDo() {
        let a = scheduler.createHotObservable([.next(210, 1), .next(230, 3), .completed(240)])
        let b = scheduler.createHotObservable([.next(220, 2), .completed(250)])
        let results = scheduler.start { Observable.merge(a.asObservable(), b.asObservable()) }
        #expect(results.events == [.next(210, 1), .next(220, 2), .next(230, 3), .completed(250)])
        let array = TestScheduler(resolution: .milliseconds(1))
        let c = array.createHotObservable([.next(210, 1), .error(220, TestError(), Int.self)])
        let d = array.createHotObservable([.next(230, 2)])
        let failed = array.start { Observable.merge([c.asObservable(), d.asObservable()]) }
        #expect(failed.events == [.next(210, 1), .error(220, TestError())])
        #expect(d.subscriptions == [SubscriptionRecord(200, 220)])
        #expect(Observable.of(Observable.of(1, 2), Observable.of(3)).merge().log().0.elements == [1, 2, 3])
    }

    /// An element that reaches a joining operator while it delivers waits in the operator's queue, which then holds
    /// its only reference: once delivered, it must die after the operator's lock (its deinitialisation is user code).
    @Test("A2 and B12: an element that only a joining operator's queue held dies outside its lock")
    func queuedElementsOfAJoinDieOutsideTheLock() {
        let first = PublishSubject<DeinitPayload>()
        let second = PublishSubject<DeinitPayload>()
        var received: [String] = []
        let subscription = Observable.merge(first, second).subscribe(onNext: { payload in
            received.append(payload.name)
            if payload.name == "first" {
                // Queued in the merge (it is delivering "first"); nobody else keeps it once `second` is done.
                second.onNext(DeinitPayload("queued", onDeinit: { second.onNext(DeinitPayload("from deinit")) }))
            }
        })
        first.onNext(DeinitPayload("first")) // hangs if "queued" dies under the merge's lock: its deinit sends to it again
        #expect(received == ["first", "queued", "from deinit"])
        subscription.dispose()
    }

    /// A stream that `concatMap` queued is held by its queue alone; started later, it must die after the operator's
    /// lock, with whatever it holds (a `just`'s element here, whose deinitialisation sends to the source).
    @Test("B12: a queued inner stream of concatMap dies outside the operator's lock")
    func queuedInnersDieOutsideTheLock() {
        let source = PublishSubject<Int>()
        let firstInner = PublishSubject<String>()
        var received: [String] = []
        let subscription = source.concatMap { value -> Observable<String> in
            switch value {
            case 1: return firstInner.asObservable()
            case 2:
                let payload = DeinitPayload("queued", onDeinit: { source.onNext(3) })
                return Observable.just(payload).map { $0.name }
            default: return .just("from deinit")
            }
        }.subscribe(onNext: { received.append($0) })
        source.onNext(1)
        source.onNext(2) // queued behind `firstInner`; the queue holds the only reference to its payload
        firstInner.onCompleted() // starts it; hangs if it dies under the lock: its payload's deinit sends to the source
        #expect(received == ["queued", "from deinit"])
        subscription.dispose()
    }

    /// The latest value a joining operator keeps may hold the last reference to the user's objects: replaced, it
    /// must die after the operator's lock (here its deinitialisation sends to the operator again).
    @Test("B12: a value withLatestFrom or combineLatest replaces dies outside the operator's lock")
    func replacedLatestValuesDieOutsideTheLock() {
        let taps = PublishSubject<Int>()
        let form = PublishSubject<DeinitPayload>()
        var withLatest: [String] = []
        let first = taps.withLatestFrom(form) { _, form in form.name }.subscribe(onNext: { withLatest.append($0) })
        form.onNext(DeinitPayload("A", onDeinit: { taps.onNext(0) }))
        form.onNext(DeinitPayload("B")) // replaces A: hangs if A dies under the lock, since its deinit sends a tap
        taps.onNext(1)
        #expect(withLatest == ["B", "B"])
        first.dispose()

        let names = PublishSubject<DeinitPayload>()
        let numbers = PublishSubject<Int>()
        var combined: [String] = []
        let second = Observable.combineLatest(names, numbers) { name, number in "\(name.name)\(number)" }
            .subscribe(onNext: { combined.append($0) })
        names.onNext(DeinitPayload("A", onDeinit: { numbers.onNext(2) }))
        numbers.onNext(1)
        names.onNext(DeinitPayload("B")) // replaces A, as above
        #expect(combined == ["A1", "B1", "B2"])
        second.dispose()
    }

    @Test func mergeWithMaxConcurrentQueuesInners() {
        let first = scheduler.createColdObservable([.next(10, "a"), .completed(20)])
        let second = scheduler.createColdObservable([.next(10, "b"), .completed(20)])
        let results = scheduler.start { Observable.of(first.asObservable(), second.asObservable()).merge(maxConcurrent: 1) }
        #expect(results.events == [.next(210, "a"), .next(230, "b"), .completed(240)])
    }

    @Test func concatRunsSourcesInSequence() {
        let first = scheduler.createColdObservable([.next(10, 1), .completed(20)])
        let second = scheduler.createColdObservable([.next(5, 2), .completed(10)])
        let results = scheduler.start { Observable.concat(first.asObservable(), second.asObservable()) }
        #expect(results.events == [.next(210, 1), .next(225, 2), .completed(230)])
        #expect(second.subscriptions == [SubscriptionRecord(220, 230)])
        #expect(Observable.of(1).concat(Observable.of(2)).log().0.events == [.next(1), .next(2), .completed])
        #expect(Observable.of(Observable.of(1), Observable.of(2)).concat().log().0.elements == [1, 2])
        #expect(Observable.concat(Observable.of(1), Observable.error(TestError()), Observable.of(3)).log().0.events == [.next(1), .error(TestError())])
    }

    @Test("A3 concat keeps no source that ended while its last source runs; disposed, it lets go of everything it made")
    func concatLetsGoOfEndedSources() {
        final class Token {}
        var token: Token? = Token()
        weak let ended = token
        var first: Observable<Int>? = Observable.just(1).do(onCompleted: { [token] in _ = token })
        token = nil
        var elements: [Int] = []
        let last = PublishSubject<Int>()
        let subscription = Observable.concat(first.unsafelyUnwrapped, last.asObservable()).subscribe(onNext: { elements.append($0) })
        first = nil
        #expect(ended == nil)
        last.onNext(2)
        #expect(elements == [1, 2])
        #expect(last.hasObservers)
        subscription.dispose()
        #expect(!last.hasObservers)

        // Disposed while its first source runs, it keeps none of the sources still to come.
        var laterToken: Token? = Token()
        weak let later = laterToken
        var running: PublishSubject<Int>? = PublishSubject<Int>()
        weak let runningSubject = running
        var toCome: Observable<Int>? = Observable.just(3).do(onCompleted: { [laterToken] in _ = laterToken })
        laterToken = nil
        let disposed = Observable.concat(running.unsafelyUnwrapped.asObservable(), toCome.unsafelyUnwrapped).subscribe(onNext: { _ in })
        toCome = nil
        running = nil
        #expect(later != nil)
        disposed.dispose()
        #expect(later == nil)
        #expect(runningSubject == nil)
    }

    @Test("A1 concat and catch(sequence:) pass each element, end with one terminal event, and end their source's subscription there; later sources are never subscribed")
    func sequentialOperatorsKeepTheGrammar() {
        let first = scheduler.createColdObservable([.next(10, 1), .completed(20)])
        let failing = scheduler.createColdObservable([.next(10, 2), .error(20, TestError("failing"))])
        let never = scheduler.createColdObservable([.next(10, 9)])
        let concatenated = scheduler.start { Observable.concat([first, failing, never].map { $0.asObservable() }) }
        #expect(concatenated.events == [.next(210, 1), .next(230, 2), .error(240, TestError("failing"))])
        #expect(first.subscriptions == [Subscription(200, 220)])
        #expect(failing.subscriptions == [Subscription(220, 240)])
        #expect(never.subscriptions == [])

        let recovering = TestScheduler(initialClock: 0)
        let broken = recovering.createColdObservable([.next(10, 1), .error(20, TestError("broken"))])
        let ending = recovering.createColdObservable([.next(10, 2), .completed(20)])
        let unused = recovering.createColdObservable([.next(10, 9)])
        let caught = recovering.start { Observable.catch(sequence: [broken, ending, unused].map { $0.asObservable() }) }
        #expect(caught.events == [.next(210, 1), .next(230, 2), .completed(240)])
        #expect(broken.subscriptions == [Subscription(200, 220)])
        #expect(ending.subscriptions == [Subscription(220, 240)])
        #expect(unused.subscriptions == [])
    }

    /// A two- or three-source `concat` of `just`s keeps only the elements; subscribed, it must do what the `concat`
    /// of the same sources as a collection does, event for event, trampolining and an early dispose included.
    @Test("A4 a concat of two or three justs behaves as the concat of its sources, afresh for each subscriber")
    func concatOfTwoOrThreeJustsBehavesAsTheConcatOfItsSources() {
        #expect(Observable.concat(.just(1), .just(2)).log().0.events == [.next(1), .next(2), .completed])
        #expect(Observable.concat(.just(1), .just(2), .just(3)).log().0.events == [.next(1), .next(2), .next(3), .completed])
        #expect(Observable.concat(.just(1), .just(2), .just(3)).take(2).log().0.events == [.next(1), .next(2), .completed])
        // Cold (A4): each subscription to the same observable gets every element.
        let loading = Observable.concat(.just(1), .just(2), .just(3))
        #expect(loading.log().0.elements == [1, 2, 3])
        #expect(loading.log().0.elements == [1, 2, 3])

        // Subscribed inside a trampolined action, a concat starts its first source once that action returns.
        func order(_ make: @escaping () -> Observable<Int>) -> [String] {
            var log: [String] = []
            _ = CurrentThreadScheduler.instance.schedule {
                _ = make().subscribe(onNext: { log.append("\($0)") }, onCompleted: { log.append("completed") })
                log.append("subscribed")
            }
            return log
        }
        let trampolined = ["subscribed", "1", "2", "3", "completed"]
        #expect(order { .concat(.just(1), .just(2), .just(3)) } == trampolined)
        #expect(order { .concat([.just(1), .just(2), .just(3)]) } == trampolined)
        #expect(order { .concat(.just(1), .just(2)) } == ["subscribed", "1", "2", "completed"])
    }

    /// With one source that is not a `just`, the two- and three-source overloads are the plain `concat`.
    @Test func concatOfTwoOrThreeWithAnyOtherSourceWaitsForIt() {
        let middle = PublishSubject<Int>()
        let (log, subscription) = Observable.concat(.just(1), middle.asObservable(), .just(3)).log()
        #expect(log.events == [.next(1)])
        middle.onNext(2)
        middle.onCompleted()
        #expect(log.events == [.next(1), .next(2), .next(3), .completed])
        subscription.dispose()

        let last = PublishSubject<Int>()
        let (pair, pairSubscription) = Observable.concat(.just(1), last.asObservable()).log()
        last.onError(TestError())
        #expect(pair.events == [.next(1), .error(TestError())])
        pairSubscription.dispose()
        // Four sources and more take the variadic `concat`.
        #expect(Observable.concat(.just(1), .just(2), .just(3), .just(4)).log().0.elements == [1, 2, 3, 4])
    }

    @Test func concatOfManySynchronousSourcesDoesNotRecurse() {
        let sources = (0..<100_000).map { Observable.just($0) }
        let (log, _) = Observable.concat(sources).log()
        #expect(log.elements.count == 100_000)
        #expect(log.events.last == .completed)
    }

    @Test func combineLatestWaitsForAllThenCombines() {
        let a = scheduler.createHotObservable([.next(210, 1), .next(230, 3), .completed(260)])
        let b = scheduler.createHotObservable([.next(220, "x"), .next(240, "y"), .completed(250)])
        let results = scheduler.start { Observable.combineLatest(a, b) { "\($0)\($1)" } }
        #expect(results.events == [.next(220, "1x"), .next(230, "3x"), .next(240, "3y"), .completed(260)])
    }

    /// RxSwift 6: a source that ends without a value does not end the output by itself; the output ends when every
    /// source has, or when an element arrives that can never be combined because the others have ended.
    @Test("A9 combineLatest ends when every source has, or when an element can never be combined; an empty source alone does not end it")
    func combineLatestCompletion() {
        let never = scheduler.createHotObservable([.next(150, 1)])
        let empty = scheduler.createHotObservable([.next(150, 1), .completed(210)])
        let neverEmpty = scheduler.start { Observable.combineLatest(never, empty) { $0 + $1 } }
        #expect(neverEmpty.events == [])
        #expect(empty.subscriptions == [Subscription(200, 210)])

        let later = TestScheduler(initialClock: 0)
        let ended = later.createHotObservable([.next(150, 1), .completed(210)])
        let sending = later.createHotObservable([.next(150, 1), .next(215, 2), .completed(220)])
        let emptyThenValue = later.start { Observable.combineLatest(ended, sending) { $0 + $1 } }
        #expect(emptyThenValue.events == [.completed(215)])
        #expect(sending.subscriptions == [Subscription(200, 215)])

        let collection = TestScheduler(initialClock: 0)
        let c = collection.createHotObservable([.next(150, 1), .completed(210)])
        let d = collection.createHotObservable([.next(150, 1), .next(215, 2), .completed(220)])
        let array = collection.start { Observable.combineLatest([c.asObservable(), d.asObservable()]) }
        #expect(array.events == [.completed(215)])
    }

    @Test func combineLatestThreeFourAndArrayForms() {
        let three = Observable.combineLatest(Observable.just(1), Observable.just("a"), Observable.just(true)) { "\($0)\($1)\($2)" }
        #expect(three.log().0.events == [.next("1atrue"), .completed])
        let four = Observable.combineLatest(Observable.just(1), Observable.just(2), Observable.just(3), Observable.just(4)) { $0 + $1 + $2 + $3 }
        #expect(four.log().0.elements == [10])
        let subjects = [BehaviorSubject(value: 1), BehaviorSubject(value: 2)]
        let (log, subscription) = Observable.combineLatest(subjects.map { $0.asObservable() }).log()
        subjects[1].onNext(5)
        #expect(log.elements == [[1, 2], [1, 5]])
        subscription.dispose() // the sources never end: the subscription and its subjects hold each other until then
        let (tuples, _) = Observable<(Int, String)>.combineLatest(Observable.just(1), Observable.just("a")).log()
        #expect(tuples.elements.map { "\($0.0)\($0.1)" } == ["1a"])
        let (failing, _) = Observable.combineLatest(Observable.just(1), Observable.just(2)) { _, _ -> Int in throw TestError() }.log()
        #expect(failing.events == [.error(TestError())])
    }

    @Test func zipPairsByIndex() {
        let a = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(230)])
        let b = scheduler.createHotObservable([.next(215, "a"), .next(240, "b"), .next(250, "c"), .completed(260)])
        let results = scheduler.start { Observable.zip(a, b) { "\($0)\($1)" } }
        #expect(results.events == [.next(215, "1a"), .next(240, "2b"), .completed(260)])
        let three = Observable.zip(Observable.of(1, 2), Observable.of("a", "b"), Observable.of(true)) { "\($0)\($1)\($2)" }
        #expect(three.log().0.events == [.next("1atrue"), .completed])
        #expect(Observable.zip([Observable.of(1, 2), Observable.of(3, 4)]).log().0.elements == [[1, 3], [2, 4]])
        let (tuples, _) = Observable<(Int, Int)>.zip(Observable.of(1), Observable.of(2)).log()
        #expect(tuples.elements.map { $0.0 + $0.1 } == [3])
    }

    /// RxSwift 6 ends `zip` only when every source has ended: a source that completed with nothing left to pair does
    /// not end it. Its collection form also ends when an element arrives that can never be paired.
    @Test("A9 zip completes once every source has completed; zip of a collection also when an element cannot be paired")
    func zipCompletion() {
        let never = scheduler.createHotObservable([.next(150, 1)])
        let empty = scheduler.createHotObservable([.next(150, 1), .completed(210)])
        let neverEmpty = scheduler.start { Observable.zip(never, empty) { $0 + $1 } }
        #expect(neverEmpty.events == [])

        let later = TestScheduler(initialClock: 0)
        let a = later.createHotObservable([.next(210, 1), .completed(220)])
        let b = later.createHotObservable([.next(215, 10), .next(230, 20), .next(240, 30)])
        let arity = later.start { Observable.zip(a, b) { $0 + $1 } }
        #expect(arity.events == [.next(215, 11)])

        let collection = TestScheduler(initialClock: 0)
        let c = collection.createHotObservable([.next(210, 1), .completed(220)])
        let d = collection.createHotObservable([.next(215, 10), .next(230, 20), .next(240, 30)])
        let array = collection.start { Observable.zip([c.asObservable(), d.asObservable()]) }
        #expect(array.events == [.next(215, [1, 10]), .completed(230)])
    }

    @Test func withLatestFromSamplesTheOther() {
        let taps = scheduler.createHotObservable([.next(210, ()), .next(230, ()), .next(250, ()), .completed(260, Void.self)])
        let text = scheduler.createHotObservable([.next(220, "a"), .next(240, "ab")])
        let results = scheduler.start { taps.withLatestFrom(text) }
        #expect(results.events == [.next(230, "a"), .next(250, "ab"), .completed(260)])
        let failing = TestScheduler(resolution: .milliseconds(1))
        let source = failing.createHotObservable([.next(210, 1)])
        let other = failing.createHotObservable([.error(220, TestError(), Int.self)])
        #expect(failing.start { source.withLatestFrom(other) { $0 + $1 } }.events == [.error(220, TestError())])
    }
}

@Suite("flatMap family")
struct FlatMapTests {
    let scheduler = TestScheduler(resolution: .milliseconds(1))

    @Test func flatMapMergesInnersAndWaitsForThemToComplete() {
        let source = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(230)])
        let results = scheduler.start {
            source.flatMap { value in
                Observable<Int>.timer(.milliseconds(value * 15), scheduler: self.scheduler).map { _ in value }
            }
        }
        #expect(results.events == [.next(225, 1), .next(250, 2), .completed(250)])
    }

    @Test func flatMapForwardsInnerErrorsAndSelectorThrows() {
        let (log, _) = Observable.of(1, 2).flatMap { value -> Observable<Int> in value == 2 ? .error(TestError()) : .just(value) }.log()
        #expect(log.events == [.next(1), .error(TestError())])
        let (thrown, _) = Observable.of(1).flatMap { _ -> Observable<Int> in throw TestError() }.log()
        #expect(thrown.events == [.error(TestError())])
    }

    @Test func concatMapRunsOneInnerAtATime() {
        let source = scheduler.createHotObservable([.next(210, 20), .next(215, 10), .completed(216)])
        let results = scheduler.start {
            source.concatMap { value in
                Observable<Int>.timer(.milliseconds(value), scheduler: self.scheduler).map { _ in value }
            }
        }
        #expect(results.events == [.next(230, 20), .next(240, 10), .completed(240)])
    }

    /// A `just` inner is applied without a subscription; it must still take its turn behind a running inner under
    /// `concatMap`, count towards completion, and never start after the stream ended.
    @Test("A1 and A3 just inners, applied without a subscription, keep their turn, the grammar and the dispose")
    func justInnersKeepTheirTurnAndTheGrammar() {
        let source = PublishSubject<Int>()
        let slow = PublishSubject<Int>()
        let (log, _) = source.concatMap { value in value == 0 ? slow.asObservable() : .just(value) }.log()
        source.onNext(1)
        source.onNext(0)
        source.onNext(2) // waits behind `slow`
        source.onNext(3)
        #expect(log.events == [.next(1)])
        slow.onNext(10)
        slow.onCompleted()
        #expect(log.events == [.next(1), .next(10), .next(2), .next(3)])
        source.onCompleted()
        #expect(log.events == [.next(1), .next(10), .next(2), .next(3), .completed])

        let failingSource = PublishSubject<Int>()
        let failing = PublishSubject<Int>()
        let (failed, _) = failingSource.concatMap { value in value == 0 ? failing.asObservable() : .just(value) }.log()
        failingSource.onNext(0)
        failingSource.onNext(5) // waits, and never starts: the stream fails first
        failing.onError(TestError())
        failingSource.onNext(6)
        #expect(failed.events == [.error(TestError())])

        let merged = PublishSubject<Int>()
        let (doubled, subscription) = merged.flatMap { Observable.just($0 * 2) }.log()
        merged.onNext(1)
        merged.onNext(2)
        subscription.dispose()
        merged.onNext(3)
        #expect(doubled.events == [.next(2), .next(4)])
        #expect(!merged.hasObservers)
    }

    @Test func flatMapLatestDisposesThePreviousInner() {
        let inners = [
            scheduler.createColdObservable([.next(10, "a1"), .next(30, "a2"), .completed(40)]),
            scheduler.createColdObservable([.next(10, "b1"), .completed(20)]),
        ]
        let source = scheduler.createHotObservable([.next(210, 0), .next(230, 1), .completed(235)])
        let results = scheduler.start { source.flatMapLatest { inners[$0] } }
        #expect(results.events == [.next(220, "a1"), .next(240, "b1"), .completed(250)])
        #expect(inners[0].subscriptions == [SubscriptionRecord(210, 230)])
        #expect(inners[1].subscriptions == [SubscriptionRecord(230, 250)])
    }

    /// A `just` inner, applied without a subscription, still cancels the previous inner, and counts as a completed
    /// inner for the output's completion.
    @Test("A1 a just inner of flatMapLatest cancels the previous inner and counts as a completed one")
    func flatMapLatestWithJustInners() {
        let inner = scheduler.createColdObservable([.next(10, "slow"), .completed(20)])
        let source = scheduler.createHotObservable([.next(210, 0), .next(215, 1), .next(240, 0), .next(245, 2), .completed(250)])
        let results = scheduler.start {
            source.flatMapLatest { value -> Observable<String> in value == 0 ? inner.asObservable() : .just("just \(value)") }
        }
        #expect(results.events == [.next(215, "just 1"), .next(245, "just 2"), .completed(250)])
        #expect(inner.subscriptions == [SubscriptionRecord(210, 215), SubscriptionRecord(240, 245)])
    }

    @Test func flatMapLatestForwardsErrors() {
        let (log, _) = Observable.of(1).flatMapLatest { _ in Observable<Int>.error(TestError()) }.log()
        #expect(log.events == [.error(TestError())])
        let (thrown, _) = Observable.of(1).flatMapLatest { _ -> Observable<Int> in throw TestError() }.log()
        #expect(thrown.events == [.error(TestError())])
        let subjects = PublishSubject<Observable<Int>>()
        let (switched, subscription) = subjects.switchLatest().log()
        subjects.onNext(.just(5))
        #expect(switched.elements == [5])
        subscription.dispose()
    }

    @Test func flatMapFirstIgnoresElementsWhileBusy() {
        let source = scheduler.createHotObservable([.next(210, 1), .next(215, 2), .next(240, 3), .completed(250)])
        let results = scheduler.start {
            source.flatMapFirst { value in
                Observable<Int>.timer(.milliseconds(20), scheduler: self.scheduler).map { _ in value }
            }
        }
        #expect(results.events == [.next(230, 1), .next(260, 3), .completed(260)])
    }
}
