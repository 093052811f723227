import Foundation
import ReactorFlow
import ReactorFlowTesting
import Testing

@Suite("A13 RxSwift 6's remaining operators")
struct MoreOperatorTests {
    let scheduler = TestScheduler(initialClock: 0)

    @Test("A13 withUnretained pairs each element with the object and completes once it is gone")
    func withUnretained() {
        final class Owner { let name = "owner" }
        var owner: Owner? = Owner()
        let subject = PublishSubject<Int>()
        var log: [String] = []
        _ = subject.withUnretained(owner!).subscribe(onNext: { log.append("\($0.name) \($1)") }, onCompleted: { log.append("completed") })
        subject.onNext(1)
        owner = nil
        subject.onNext(2)
        #expect(log == ["owner 1", "completed"])
    }

    @Test("A13 enumerated counts from 0 per subscription")
    func enumerated() {
        let source = Observable.of("a", "b").enumerated()
        var log: [String] = []
        _ = source.subscribe(onNext: { log.append("\($0.index)\($0.element)") })
        _ = source.subscribe(onNext: { log.append("\($0.index)\($0.element)") })
        #expect(log == ["0a", "1b", "0a", "1b"])
    }

    @Test("A13 skip(until:) passes elements after the trigger's first element; a source that ends first ends silently")
    func skipUntil() {
        let source = scheduler.createHotObservable([.next(210, 1), .next(230, 2), .next(250, 3), .completed(260)])
        let trigger = scheduler.createHotObservable([.next(240, "go"), .next(245, "again")])
        #expect(scheduler.start { source.skip(until: trigger) }.events == [.next(250, 3), .completed(260)])
        #expect(trigger.subscriptions == [Subscription(200, 240)])

        let other = TestScheduler(initialClock: 0)
        let early = other.createHotObservable([.next(210, 1), .completed(220)])
        let late = other.createHotObservable([.next(300, 0)])
        #expect(other.start { early.skip(until: late) }.events == [])

        let third = TestScheduler(initialClock: 0)
        let values = third.createHotObservable([.next(210, 1)])
        let failing = third.createHotObservable([.error(220, TestError(), Int.self)])
        #expect(third.start { values.skip(until: failing) }.events == [.error(220, TestError())])
    }

    @Test("A13 takeLast sends the last elements on completion; an error drops them")
    func takeLast() {
        let source = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .next(230, 3), .completed(240)])
        #expect(scheduler.start { source.takeLast(2) }.events == [.next(240, 2), .next(240, 3), .completed(240)])
        let other = TestScheduler(initialClock: 0)
        let failing = other.createHotObservable([.next(210, 1), .error(220, TestError())])
        #expect(other.start { failing.takeLast(2) }.events == [.error(220, TestError())])
        #expect(Observable.of(1, 2).takeLast(0).log().0.events == [.completed])
    }

    @Test("A13 reduce folds on completion; a throwing accumulator fails the stream")
    func reduce() {
        #expect(Observable.of(1, 2, 3).reduce(0, accumulator: +).log().0.events == [.next(6), .completed])
        #expect(Observable.of(1, 2).reduce(0, accumulator: +, mapResult: { "sum \($0)" }).log().0.events == [.next("sum 3"), .completed])
        let failing = Observable.of(1, 2).reduce(0) { _, _ -> Int in throw TestError("acc") }
        #expect(failing.log().0.events == [.error(TestError("acc"))])
    }

    @Test("A7 A13 range, repeatElement and generate are trampolined: each step is its own scheduled item")
    func generated() {
        #expect(Observable.range(start: 3, count: 3).log().0.events == [.next(3), .next(4), .next(5), .completed])
        #expect(Observable<Int>.range(start: 0, count: 0).log().0.events == [.completed])
        #expect(Observable<Int>.range(start: 0, count: -1).log().0.events == [.error(RxError.argumentOutOfRange)])
        #expect(Observable<Int8>.range(start: 120, count: 10).log().0.events == [.error(RxError.argumentOutOfRange)])
        #expect(Observable.repeatElement("x").take(3).log().0.events == [.next("x"), .next("x"), .next("x"), .completed])
        let doubling = Observable.generate(initialState: 1, condition: { $0 < 20 }, iterate: { $0 * 3 })
        #expect(doubling.log().0.events == [.next(1), .next(3), .next(9), .completed])
        // On a TestScheduler each step is scheduled for now: one element per tick.
        let timed = scheduler.start { Observable.range(start: 1, count: 3, scheduler: scheduler) }
        #expect(timed.events == [.next(201, 1), .next(202, 2), .next(203, 3), .completed(204)])
    }

    @Test("A13 amb follows whichever stream sends first and disposes the other")
    func amb() {
        let slow = scheduler.createHotObservable([.next(230, "slow")])
        let fast = scheduler.createHotObservable([.next(220, "fast"), .next(240, "fast again"), .completed(250)])
        #expect(scheduler.start { slow.amb(fast) }.events == [.next(220, "fast"), .next(240, "fast again"), .completed(250)])
        #expect(slow.subscriptions == [Subscription(200, 220)])
        #expect(Observable<Int>.amb([Observable.never(), .just(1)]).log().0.events == [.next(1), .completed])
    }

    @Test("A13 sample sends the latest element since the last tick; it completes at the first tick after the source ended")
    func sample() {
        let source = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .next(250, 3), .completed(270)])
        let ticks = scheduler.createHotObservable([.next(230, ()), .next(240, ()), .next(260, ()), .next(280, ())])
        #expect(scheduler.start { source.sample(ticks) }.events == [.next(230, 2), .next(260, 3), .completed(280)])
        let other = TestScheduler(initialClock: 0)
        let quiet = other.createHotObservable([.next(210, 1)])
        let beats = other.createHotObservable([.next(220, ()), .next(230, ())])
        #expect(other.start { quiet.sample(beats, defaultValue: 0) }.events == [.next(220, 1), .next(230, 0)])
    }

    @Test("A13 decode(type:decoder:) decodes each Data element; a decoding error ends the stream with that error")
    func decodeDecodesEachElement() {
        struct User: Decodable, Equatable { let name: String }
        let payloads = [Data(#"{"name":"Ann"}"#.utf8), Data("not json".utf8), Data(#"{"name":"Bob"}"#.utf8)]
        let log = Observable.from(payloads).decode(type: User.self, decoder: JSONDecoder()).log().0
        #expect(log.elements == [User(name: "Ann")])
        #expect(log.events.count == 2)
        guard case .error(let error) = log.events.last else {
            Issue.record("no error: \(log.events)")
            return
        }
        #expect(error is DecodingError)
        let listed = Observable.just(Data("[1, 2]".utf8)).decode(type: [Int].self, decoder: JSONDecoder()).log().0
        #expect(listed.events == [.next([1, 2]), .completed])
    }

    @Test("B12 an element sample replaces before the next tick dies outside the operator's lock")
    func sampleReplacedElementDiesOutsideTheLock() {
        // A source that sends straight to the operator: a subject would queue what the deinitialisation sends.
        var send: AnyObserver<DeinitPayload>?
        let source = Observable<DeinitPayload>.create { observer in
            send = observer
            return Disposables.create()
        }
        let ticks = PublishSubject<Void>()
        var received: [String] = []
        let subscription = source.sample(ticks).subscribe(onNext: { received.append($0.name) })
        send?.onNext(DeinitPayload("A", onDeinit: { send?.onNext(DeinitPayload("C")) }))
        send?.onNext(DeinitPayload("B")) // replaces A: hangs if A dies under the lock, since its deinit sends C
        ticks.onNext(())
        #expect(received == ["C"])
        subscription.dispose()
    }

    @Test("A13 materialize turns events into elements and dematerialize back")
    func materialize() {
        let failing = Observable.concat(.just(1), Observable<Int>.error(TestError()))
        #expect(failing.materialize().log().0.events == [.next(.next(1)), .next(.error(TestError())), .completed])
        #expect(failing.materialize().dematerialize().log().0.events == [.next(1), .error(TestError())])
    }

    @Test("A6 A13 retry(when:) resubscribes when the trigger emits and fails when it fails")
    func retryWhen() {
        let source = scheduler.createColdObservable([.next(5, 1), .error(10, TestError())])
        let results = scheduler.start {
            source.retry(when: { (errors: Observable<TestError>) in
                errors.enumerated().flatMap { attempt, error -> Observable<Int> in
                    attempt < 2 ? Observable<Int>.timer(.seconds(3), scheduler: scheduler) : .error(error)
                }
            })
        }
        #expect(results.events == [.next(205, 1), .next(218, 1), .next(231, 1), .error(236, TestError())])
        #expect(source.subscriptions == [Subscription(200, 210), Subscription(213, 223), Subscription(226, 236)])

        struct Other: Error, Equatable {}
        let wrongType = Observable<Int>.error(Other()).retry(when: { (errors: Observable<TestError>) in errors })
        #expect(wrongType.log().0.events == [.error(Other())], "an error of another type goes through")
    }

    @Test("A13 delaySubscription subscribes later; disposing first cancels it")
    func delaySubscription() {
        let source = scheduler.createColdObservable([.next(5, 1), .completed(10)])
        #expect(scheduler.start { source.delaySubscription(.seconds(30), scheduler: scheduler) }.events == [.next(235, 1), .completed(240)])
        #expect(source.subscriptions == [Subscription(230, 240)])
        let other = TestScheduler(initialClock: 0)
        let never = other.createColdObservable([.next(5, 1)])
        _ = other.start(created: 0, subscribed: 0, disposed: 10) { never.delaySubscription(.seconds(30), scheduler: other) }
        #expect(never.subscriptions == [])
    }

    @Test("A13 element(at:) and single() keep RxSwift's errors")
    func elementAtAndSingle() {
        #expect(Observable.of(1, 2, 3).element(at: 1).log().0.events == [.next(2), .completed])
        #expect(Observable.of(1).element(at: 3).log().0.events == [.error(RxError.argumentOutOfRange)])
        #expect(Observable.of(1).element(at: -1).log().0.events == [.error(RxError.argumentOutOfRange)])
        #expect(Observable.of(1).single().log().0.events == [.next(1), .completed])
        #expect(Observable.of(1, 2).single().log().0.events == [.next(1), .error(RxError.moreThanOneElement)])
        #expect(Observable<Int>.empty().single().log().0.events == [.error(RxError.noElements)])
        #expect(Observable.of(1, 2, 3).single { $0 == 2 }.log().0.events == [.next(2), .completed])
    }

    @Test("A13 buffer sends arrays by count or by time, possibly empty, and the rest on completion")
    func buffer() {
        let source = scheduler.createHotObservable([
            .next(201, 1), .next(202, 2), .next(203, 3), .next(212, 4), .next(230, 5), .completed(235),
        ])
        let results = scheduler.start { source.buffer(timeSpan: .seconds(10), count: 3, scheduler: scheduler) }
        #expect(results.events == [.next(203, [1, 2, 3]), .next(213, [4]), .next(223, []), .next(233, [5]), .next(235, []), .completed(235)])
    }

    @Test("A13 window splits by count or by time; the source's end ends the window and the stream of windows")
    func window() {
        let source = scheduler.createHotObservable([.next(201, 1), .next(202, 2), .next(215, 3), .completed(220)])
        var windows: [[Int]] = []
        var ended = false
        scheduler.scheduleAt(200) {
            _ = source.window(timeSpan: .seconds(10), count: 2, scheduler: scheduler).subscribe(onNext: { window in
                let index = windows.count
                windows.append([])
                _ = window.subscribe(onNext: { windows[index].append($0) })
            }, onCompleted: { ended = true })
        }
        scheduler.start()
        // The count closes the first window at 202 and starts the next one's timer, which closes it empty at 212.
        #expect(windows == [[1, 2], [], [3]])
        #expect(ended)
    }

    @Test("A13 groupBy sends a group per key, each with its elements; a group keeps the source while it is observed")
    func groupBy() {
        let source = scheduler.createHotObservable([.next(210, "apple"), .next(220, "avocado"), .next(230, "banana"), .next(240, "apricot"), .completed(250)])
        var groups: [String: [String]] = [:]
        var keys: [String] = []
        var outer: Disposable?
        scheduler.scheduleAt(200) {
            outer = source.groupBy { String($0.prefix(1)) }.subscribe(onNext: { group in
                keys.append(group.key)
                _ = group.subscribe(onNext: { groups[group.key, default: []].append($0) })
            })
        }
        scheduler.scheduleAt(235) { outer?.dispose() } // the groups keep the source subscribed
        scheduler.start()
        #expect(keys == ["a", "b"])
        #expect(groups == ["a": ["apple", "avocado", "apricot"], "b": ["banana"]])
        #expect(source.subscriptions == [Subscription(200, 250)])
        let failing = Observable.of(1).groupBy { _ -> Int in throw TestError("key") }.log().0.events
        #expect(failing.count == 1)
        #expect(failing.first?.error as? TestError == TestError("key"), "a throwing key selector fails the stream of groups")
    }

    @Test("A13 using makes a resource per subscription and disposes it when the subscription ends")
    func using() {
        final class Resource: Disposable {
            let onDispose: () -> Void
            init(_ onDispose: @escaping () -> Void) { self.onDispose = onDispose }
            func dispose() { onDispose() }
        }
        var log: [String] = []
        let stream = Observable<Int>.using({ Resource { log.append("resource disposed") } },
                                          observableFactory: { _ in log.append("made"); return .of(1, 2) })
        _ = stream.subscribe(onNext: { log.append("next \($0)") })
        #expect(log == ["made", "next 1", "next 2", "resource disposed"])
        let failing = Observable<Int>.using({ Resource { log.append("failed resource disposed") } },
                                           observableFactory: { _ in throw TestError("factory") })
        #expect(failing.log().0.events == [.error(TestError("factory"))])
        #expect(log.last == "failed resource disposed")
    }

    @Test("A13 ifEmpty gives a default or switches to another stream only when nothing came")
    func ifEmpty() {
        #expect(Observable<Int>.empty().ifEmpty(default: 5).log().0.events == [.next(5), .completed])
        #expect(Observable.of(1).ifEmpty(default: 5).log().0.events == [.next(1), .completed])
        #expect(Observable<Int>.empty().ifEmpty(switchTo: .of(7, 8)).log().0.events == [.next(7), .next(8), .completed])
        #expect(Observable<Int>.error(TestError()).ifEmpty(default: 5).log().0.events == [.error(TestError())])
    }

    @Test("A13 merge(maxConcurrent:) runs at most that many inner streams; the instance concat waits for the first")
    func mergeMaxConcurrentAndConcat() {
        let a = scheduler.createColdObservable([.next(10, 1), .completed(20)])
        let b = scheduler.createColdObservable([.next(10, 2), .completed(20)])
        let c = scheduler.createColdObservable([.next(10, 3), .completed(20)])
        let merged = scheduler.start { Observable.of(a.asObservable(), b.asObservable(), c.asObservable()).merge(maxConcurrent: 2) }
        #expect(merged.events == [.next(210, 1), .next(210, 2), .next(230, 3), .completed(240)])
        #expect(c.subscriptions == [Subscription(220, 240)])

        let other = TestScheduler(initialClock: 0)
        let first = other.createColdObservable([.next(10, "a"), .completed(20)])
        let second = other.createColdObservable([.next(5, "b"), .completed(5)])
        #expect(other.start { first.concat(second) }.events == [.next(210, "a"), .next(225, "b"), .completed(225)])
    }
}

/// The time-bounded `take` and `skip`, `take(until:)` with a predicate, `Observable.catch(sequence:)`, and the
/// collection forms of `combineLatest` and `zip` with a result selector.
extension MoreOperatorTests {
    @Test("A13 take(until:behavior:) with a predicate stops at the first element that passes it, emitting it only when inclusive")
    func takeUntilPredicate() {
        let source = scheduler.createHotObservable([.next(210, 1), .next(220, 4), .next(230, 2), .completed(240)])
        let exclusive = scheduler.start { source.take(until: { $0 > 3 }) }
        #expect(exclusive.events == [.next(210, 1), .completed(220)])
        #expect(source.subscriptions == [Subscription(200, 220)])
        let inclusive = TestScheduler(initialClock: 0)
        let again = inclusive.createHotObservable([.next(210, 1), .next(220, 4), .next(230, 2), .completed(240)])
        #expect(inclusive.start { again.take(until: { $0 > 3 }, behavior: .inclusive) }.events
                == [.next(210, 1), .next(220, 4), .completed(220)])
        let throwing = Observable.of(1, 2).take(until: { _ in throw TestError("no") }).log().0
        #expect(throwing.events == [.error(TestError("no"))])
    }

    @Test("A13 take(for:scheduler:) completes the given time after the subscription; skip(_:scheduler:) drops what comes before it")
    func timeBoundedTakeAndSkip() {
        let source = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .next(230, 3), .completed(240)])
        let taken = scheduler.start { source.take(for: .seconds(25), scheduler: scheduler) }
        #expect(taken.events == [.next(210, 1), .next(220, 2), .completed(225)])
        #expect(source.subscriptions == [Subscription(200, 225)])

        let zero = TestScheduler(initialClock: 0)
        let quiet = zero.createHotObservable([.next(210, 1), .completed(230)])
        #expect(zero.start { quiet.take(for: .seconds(0), scheduler: zero) }.events == [.completed(201)])

        let skipping = TestScheduler(initialClock: 0)
        let more = skipping.createHotObservable([.next(210, 1), .next(220, 2), .next(230, 3), .completed(240)])
        #expect(skipping.start { more.skip(.seconds(15), scheduler: skipping) }.events == [.next(220, 2), .next(230, 3), .completed(240)])
    }

    @Test("A13 Observable.catch(sequence:) moves to the next source on an error, ends with the first completion or the last error")
    func catchSequence() {
        let first = scheduler.createHotObservable([.next(210, 1), .error(220, TestError("first"))])
        let second = scheduler.createHotObservable([.next(215, 9), .next(225, 2), .error(230, TestError("second"))])
        let third = scheduler.createHotObservable([.next(235, 3), .completed(240)])
        let results = scheduler.start { Observable.catch(sequence: [first, second, third].map { $0.asObservable() }) }
        #expect(results.events == [.next(210, 1), .next(225, 2), .next(235, 3), .completed(240)])
        #expect(first.subscriptions == [Subscription(200, 220)])
        #expect(second.subscriptions == [Subscription(220, 230)])
        #expect(third.subscriptions == [Subscription(230, 240)])

        let allFail = Observable.catch(sequence: [Observable<Int>.error(TestError("a")), .error(TestError("b"))]).log().0
        #expect(allFail.events == [.error(TestError("b"))])
        #expect(Observable<Int>.catch(sequence: []).log().0.events == [.completed])
    }

    @Test("A13 combineLatest and zip of a collection with a result selector; combineLatest of none emits the selector's value once")
    func collectionsWithResultSelectors() {
        let subjects = (0..<3).map { _ in PublishSubject<Int>() }
        let (sums, sumsSubscription) = Observable.combineLatest(subjects) { $0.reduce(0, +) }.log()
        let (zipped, zippedSubscription) = Observable.zip(subjects) { $0.map(String.init).joined() }.log()
        for (index, subject) in subjects.enumerated() { subject.onNext(index + 1) }
        subjects[0].onNext(10)
        #expect(sums.elements == [6, 15])
        #expect(zipped.elements == ["123"])
        sumsSubscription.dispose() // the subjects never end: they and the subscriptions hold each other until then
        zippedSubscription.dispose()

        #expect(Observable.combineLatest([Observable<Int>]()) { $0.count }.log().0.events == [.next(0), .completed])
        #expect(Observable.combineLatest([Observable<Int>]()).log().0.events == [.next([]), .completed])
        #expect(Observable.zip([Observable<Int>]()) { $0.count }.log().0.events == [.completed])
        let failing = Observable.combineLatest([Observable<Int>]()) { _ -> Int in throw TestError("none") }.log().0
        #expect(failing.events == [.error(TestError("none"))])

        // RxSwift's shape: the type named is the sources' element type.
        #expect(Observable<Int>.combineLatest([Observable.just(1), .just(2)]).log().0.events == [.next([1, 2]), .completed])
        #expect(Observable<Int>.zip([Observable.of(1, 2), .of(3, 4)]).log().0.events == [.next([1, 3]), .next([2, 4]), .completed])
    }

    @Test("A13 concat of a sequence goes through it lazily, afresh per subscription, so an endless one works")
    func concatOfASequence() {
        let endless = (0...).lazy.map { Observable.just($0) }
        let taken = Observable.concat(endless).take(3)
        #expect(taken.log().0.events == [.next(0), .next(1), .next(2), .completed])
        #expect(taken.log().0.events == [.next(0), .next(1), .next(2), .completed])
        let failing = Observable.concat(AnySequence([Observable.just(1), .error(TestError("stop")), .just(3)]))
        #expect(failing.log().0.events == [.next(1), .error(TestError("stop"))])
        #expect(Observable<Int>.concat(AnySequence([])).log().0.events == [.completed])
    }

    @Test("A13 distinctUntilChanged with a key selector computes each key once, as the element arrives; a comparer of keys decides")
    func distinctUntilChangedWithKeys() {
        var keysComputed: [String] = []
        let words = Observable.of("a", "A", "b", "B", "a")
        let caseless = words.distinctUntilChanged({ word -> String in keysComputed.append(word); return word.lowercased() },
                                                  comparer: { $0 == $1 })
        #expect(caseless.log().0.elements == ["a", "b", "a"])
        #expect(keysComputed == ["a", "A", "b", "B", "a"])
        #expect(words.distinctUntilChanged { $0.lowercased() }.log().0.elements == ["a", "b", "a"])
        let throwingKey = Observable.of(1, 2).distinctUntilChanged({ _ -> Int in throw TestError("key") }, comparer: ==)
        #expect(throwingKey.log().0.events == [.error(TestError("key"))])
        let throwingComparer = Observable.of(1, 2).distinctUntilChanged({ $0 }, comparer: { _, _ in throw TestError("compare") })
        #expect(throwingComparer.log().0.events == [.next(1), .error(TestError("compare"))])
    }

    @Test("A13 just, of, from and from(optional:) with a scheduler send each event in its own scheduled action")
    func creationOnAScheduler() {
        #expect(scheduler.start { Observable.just(42, scheduler: scheduler) }.events == [.next(201, 42), .completed(202)])
        let of = TestScheduler(initialClock: 0)
        #expect(of.start { Observable.of(1, 2, 3, scheduler: of) }.events == [.next(201, 1), .next(202, 2), .next(203, 3), .completed(204)])
        let from = TestScheduler(initialClock: 0)
        #expect(from.start(disposed: 203) { Observable.from(1..., scheduler: from) }.events == [.next(201, 1), .next(202, 2)])
        let optional = TestScheduler(initialClock: 0)
        #expect(optional.start { Observable.from(optional: Int?.none, scheduler: optional) }.events == [.completed(201)])
        #expect(Observable.from(optional: 7).log().0.events == [.next(7), .completed])
        #expect(Observable.from(optional: Int?.none).log().0.events == [.completed])
    }

    @Test("A13 do: an error a handler throws replaces the event; thrown after the event, it follows the element or goes nowhere")
    func doHandlersThatThrow() {
        let onError = Observable<Int>.error(TestError("source")).do(onError: { _ in throw TestError("onError") }).log().0
        #expect(onError.events == [.error(TestError("onError"))])
        let onCompleted = Observable.of(1).do(onCompleted: { throw TestError("onCompleted") }).log().0
        #expect(onCompleted.events == [.next(1), .error(TestError("onCompleted"))])
        let afterNext = Observable.of(1, 2).do(afterNext: { if $0 == 1 { throw TestError("afterNext") } }).log().0
        #expect(afterNext.events == [.next(1), .error(TestError("afterNext"))])
        var after: [String] = []
        let afterEnd = Observable.of(1).do(afterCompleted: { after.append("afterCompleted"); throw TestError("late") }).log().0
        #expect(afterEnd.events == [.next(1), .completed])
        #expect(after == ["afterCompleted"])
        var single: [String] = []
        _ = Single<Int>.error(TestError("source")).do(onError: { _ in throw TestError("replaced") })
            .subscribe(onSuccess: { single.append("success \($0)") }, onFailure: { single.append("failure \($0)") })
        #expect(single == ["failure TestError(replaced)"])
    }

    @Test("A13 Completable.concat(_:) completes once both have, in turn; the first error fails it")
    func completableConcat() {
        var log: [String] = []
        let first = Completable.create { observer in log.append("first"); observer(.completed); return Disposables.create() }
        let second = Completable.create { observer in log.append("second"); observer(.completed); return Disposables.create() }
        _ = first.concat(second).subscribe(onCompleted: { log.append("completed") }, onError: { _ in log.append("error") })
        #expect(log == ["first", "second", "completed"])
        log = []
        _ = Completable.error(TestError("no")).concat(second).subscribe(onCompleted: { log.append("completed") }, onError: { log.append("error \($0)") })
        #expect(log == ["error TestError(no)"])
    }
}
