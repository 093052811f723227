import Foundation
import ReactorFlow
import ReactorFlowTesting
import Testing

@Suite("Subjects and relays (A5)")
struct SubjectTests {
    @Test func publishSubjectDeliversOnlyNewEvents() {
        let subject = PublishSubject<Int>()
        subject.onNext(1)
        let (log, subscription) = subject.log()
        subject.onNext(2)
        subscription.dispose()
        subject.onNext(3)
        #expect(log.events == [.next(2)])
        #expect(!subject.hasObservers)
    }

    @Test func publishSubjectReplaysTheTerminalEventToLateSubscribers() {
        let subject = PublishSubject<Int>()
        subject.onCompleted()
        subject.onNext(1)
        #expect(subject.log().0.events == [.completed])
        let failed = PublishSubject<Int>()
        failed.onError(TestError())
        #expect(failed.log().0.events == [.error(TestError())])
    }

    @Test func behaviorSubjectReplaysTheLatest() throws {
        let subject = BehaviorSubject(value: 0)
        #expect(subject.log().0.events == [.next(0)])
        subject.onNext(1)
        let (log, _) = subject.log()
        subject.onNext(2)
        #expect(log.events == [.next(1), .next(2)])
        #expect(try subject.value() == 2)
        subject.onError(TestError())
        #expect(throws: TestError.self) { try subject.value() }
        #expect(subject.log().0.events == [.error(TestError())])
    }

    @Test func replaySubjectReplaysItsBufferAndTheTerminalEvent() {
        let subject = ReplaySubject<Int>.create(bufferSize: 2)
        subject.onNext(1)
        subject.onNext(2)
        subject.onNext(3)
        #expect(subject.log().0.events == [.next(2), .next(3)])
        subject.onCompleted()
        #expect(subject.log().0.events == [.next(2), .next(3), .completed])
        let all = ReplaySubject<Int>.createUnbounded()
        for value in 1...5 { all.onNext(value) }
        #expect(all.log().0.elements == [1, 2, 3, 4, 5])
    }

    @Test("A5 AsyncSubject delivers only the last element, once it completes; a late subscriber gets the same")
    func asyncSubjectDeliversTheLastElementOnCompletion() {
        let subject = AsyncSubject<Int>()
        let (log, _) = subject.log()
        subject.onNext(1)
        subject.onNext(2)
        #expect(log.events == [])
        #expect(subject.hasObservers)
        subject.onCompleted()
        #expect(log.events == [.next(2), .completed])
        #expect(!subject.hasObservers)
        subject.onNext(3)
        subject.onError(TestError())
        #expect(log.events == [.next(2), .completed])
        #expect(subject.log().0.events == [.next(2), .completed])
    }

    @Test("A5 AsyncSubject without elements only completes; an error goes out alone, dropping the last element")
    func asyncSubjectErrorsAndEmptyCompletion() {
        let empty = AsyncSubject<Int>()
        let (emptyLog, _) = empty.log()
        empty.onCompleted()
        #expect(emptyLog.events == [.completed])
        #expect(empty.log().0.events == [.completed])
        let failed = AsyncSubject<Int>()
        let (failedLog, _) = failed.log()
        failed.onNext(1)
        failed.onError(TestError())
        failed.onCompleted()
        #expect(failedLog.events == [.error(TestError())])
        #expect(failed.log().0.events == [.error(TestError())])
    }

    @Test("B12 an element AsyncSubject replaces dies outside its lock")
    func asyncSubjectReplacedElementDiesOutsideItsLock() {
        let subject = AsyncSubject<DeinitPayload>()
        var received: [String] = []
        let subscription = subject.subscribe(onNext: { received.append($0.name) })
        subject.onNext(DeinitPayload("A", onDeinit: { subject.onNext(DeinitPayload("C")) }))
        subject.onNext(DeinitPayload("B")) // replaces A: hangs if A dies under the lock, since its deinit sends C
        subject.onCompleted()
        #expect(received == ["C"])
        subscription.dispose()
    }

    @Test("A5 an AsyncSubject that goes away before it ends lets its subscribers' closures go without an event")
    func asyncSubjectGoingAwayReleasesItsSubscriptions() {
        final class Witness {}
        var events: [Event<Int>] = []
        weak var witness: Witness?
        do {
            let subject = AsyncSubject<Int>()
            let kept = Witness()
            witness = kept
            _ = subject.subscribe { event in withExtendedLifetime(kept) { events.append(event) } }
            subject.onNext(1)
        }
        #expect(events == [])
        #expect(witness == nil)
    }

    @Test("A3 A5 a subject that goes away sends nothing more, as in RxSwift, and lets its subscribers' closures go")
    func aSubjectGoingAwayReleasesItsSubscriptions() {
        final class Witness {}
        var events: [Event<Int>] = []
        weak var keptWitness: Witness?
        weak var droppedWitness: Witness?
        var subject: BehaviorSubject<Int>? = BehaviorSubject(value: 1)
        var kept: Disposable?
        do {
            let witness = Witness()
            keptWitness = witness
            kept = subject?.map { $0 * 10 }.subscribe { event in
                withExtendedLifetime(witness) { events.append(event) }
            }
            let other = Witness()
            droppedWitness = other
            _ = subject?.map { $0 }.subscribe { _ in withExtendedLifetime(other) {} } // never disposed
        }
        subject?.onNext(2)
        #expect(keptWitness != nil)
        #expect(droppedWitness != nil)
        subject = nil // nobody can send any more
        #expect(events == [.next(10), .next(20)], "no completed: the source died, it did not complete")
        #expect(droppedWitness == nil)
        #expect(keptWitness == nil, "a subscription still held keeps nothing alive either")
        kept?.dispose() // still allowed, and does nothing
        #expect(events == [.next(10), .next(20)])
    }

    /// Every class over a subject core; each releases the core's subscriptions in its own `deinit` (see
    /// `Observable.init(subjectCore:)`), so each is checked.
    enum SubjectKind: CaseIterable, Sendable {
        case publish, behavior, replay, publishRelay, behaviorRelay, action, stateRelay

        /// A subject of this kind, and a function that sends it an element.
        func make() -> (Observable<Int>, (Int) -> Void) {
            switch self {
            case .publish: let subject = PublishSubject<Int>(); return (subject, { [unowned subject] in subject.onNext($0) })
            case .behavior: let subject = BehaviorSubject(value: 0); return (subject, { [unowned subject] in subject.onNext($0) })
            case .replay: let subject = ReplaySubject<Int>.create(bufferSize: 1); return (subject, { [unowned subject] in subject.onNext($0) })
            case .publishRelay: let relay = PublishRelay<Int>(); return (relay, { [unowned relay] in relay.accept($0) })
            case .behaviorRelay: let relay = BehaviorRelay(value: 0); return (relay, { [unowned relay] in relay.accept($0) })
            case .action: let subject = ActionSubject<Int>(); return (subject, { [unowned subject] in subject.onNext($0) })
            case .stateRelay: let relay = StateRelay(value: 0); return (relay, { [unowned relay] in relay.accept($0) })
            }
        }
    }

    @Test("A5 every kind of subject lets its subscriptions go without an event when it goes away, direct and through operators",
          arguments: SubjectKind.allCases)
    func everySubjectKindReleasesItsSubscriptionsWhenItGoesAway(kind: SubjectKind) {
        final class Witness {}
        var direct: [Event<Int>] = []
        var mapped: [Event<Int>] = []
        weak var directWitness: Witness?
        weak var mappedWitness: Witness?
        do {
            let (subject, send) = kind.make()
            let first = Witness(), second = Witness()
            directWitness = first
            mappedWitness = second
            // Never disposed: only the subject holds them.
            _ = subject.subscribe { event in withExtendedLifetime(first) { direct.append(event) } }
            _ = subject.map { $0 * 10 }.subscribe { event in withExtendedLifetime(second) { mapped.append(event) } }
            direct.removeAll() // what a replaying kind replayed
            mapped.removeAll()
            send(7)
        }
        #expect(direct == [.next(7)])
        #expect(mapped == [.next(70)])
        #expect(directWitness == nil)
        #expect(mappedWitness == nil)
    }

    /// A subject walks its subscriber list without a reference of its own while it delivers an element; a
    /// subscriber that changes the list meanwhile must leave the walk intact. Forty new subscribers outgrow the
    /// list's capacity, so an in-place change would move it and free the one being walked (AddressSanitizer reports
    /// that in CI). The reactor's state relay walks the same way (`ReactorContractTests`).
    @Test("A1 A3 subscribers added and disposed during a subject's delivery: the disposed get nothing more, the added nothing of it")
    func subscribersChangingDuringADelivery() {
        let subject = PublishSubject<Int>()
        var seen: [String: [Int]] = [:]
        var subscriptions: [String: Disposable] = [:]
        func watch(_ name: String) {
            subscriptions[name] = subject.subscribe(onNext: { seen[name, default: []].append($0) })
        }
        let newcomers = (0..<40).map { "new \($0)" }
        subscriptions["changer"] = subject.subscribe(onNext: { value in
            seen["changer", default: []].append(value)
            guard value == 1 else { return }
            subscriptions["b"]?.dispose() // later in the list than this subscriber
            newcomers.forEach(watch)
            subscriptions["c"]?.dispose()
            subscriptions["c"] = nil // the walked list now holds the last reference to it
        })
        for name in ["b", "c", "d"] { watch(name) }
        subject.onNext(1)
        subject.onNext(2)
        #expect(seen["changer"] == [1, 2])
        #expect(seen["b"] == nil)
        #expect(seen["c"] == nil)
        #expect(seen["d"] == [1, 2])
        for name in newcomers { #expect(seen[name] == [2], "\(name)") }
        for subscription in subscriptions.values { subscription.dispose() }
    }

    @Test func relaysNeverTerminate() {
        let publish = PublishRelay<Int>()
        let (log, _) = publish.log()
        publish.accept(1)
        #expect(log.events == [.next(1)])

        let behavior = BehaviorRelay(value: "a")
        behavior.accept("b")
        #expect(behavior.value == "b")
        #expect(behavior.log().0.events == [.next("b")])
        Observable.of("c").bind(to: behavior).dispose()
        #expect(behavior.value == "c")
        #expect(behavior.log().0.events == [.next("c")])
    }

    /// A subject with one element to replay delivers it to a new subscriber before `subscribe` returns, and an
    /// element sent from inside that replay (or by anyone meanwhile) comes after it, to everyone, in order.
    @Test("A5 and A2 the replay comes first, then what was sent during it")
    func replayComesBeforeWhatItsObserverSends() {
        let subject = BehaviorSubject(value: 1)
        var first: [Int] = []
        var second: [Int] = []
        let firstSubscription = subject.subscribe(onNext: { value in
            first.append(value)
            if value == 1 {
                subject.onNext(2)
                #expect(first == [1], "queued behind the replay, not delivered recursively")
            }
        })
        #expect(first == [1, 2])
        let secondSubscription = subject.subscribe(onNext: { second.append($0) })
        subject.onNext(3)
        #expect(first == [1, 2, 3])
        #expect(second == [2, 3])
        firstSubscription.dispose()
        secondSubscription.dispose()
        #expect(!subject.hasObservers)
    }

    /// `ActionSubject`, outside a reactor too: a binding's error or completion never ends it (rule B7b).
    @Test("B7b a free-standing action subject delivers elements and ignores error and completion")
    func actionSubjectIgnoresStopEvents() {
        let actions = ActionSubject<Int>()
        #expect(!actions.hasObservers)
        let (log, subscription) = actions.log()
        #expect(actions.hasObservers)
        actions.onNext(1)
        actions.onError(TestError())
        actions.onNext(2)
        actions.onCompleted()
        actions.onNext(3)
        Observable.of(4).bind(to: actions).dispose()
        #expect(log.events == [.next(1), .next(2), .next(3), .next(4)])
        subscription.dispose()
        actions.onNext(5)
        #expect(log.events == [.next(1), .next(2), .next(3), .next(4)])
        #expect(!actions.hasObservers)
    }

    @Test("A10 closures capturing local vars compile unchanged; reentrant sends reach everyone in order")
    func reentrantSendsAreDeliveredToEveryoneInOrder() {
        let subject = PublishSubject<Int>()
        var first: [Int] = []
        var second: [Int] = []
        let sending = subject.subscribe(onNext: { value in
            first.append(value)
            if value == 1 { subject.onNext(2) }
        })
        let watching = subject.subscribe(onNext: { second.append($0) })
        subject.onNext(1)
        #expect(first == [1, 2])
        #expect(second == [1, 2])
        sending.dispose() // its closure holds the subject: they keep each other alive until then
        watching.dispose()
    }

    @Test func subscribingFromInsideADeliveryReplaysAtOnceWithoutDuplicates() {
        let subject = BehaviorSubject(value: 0)
        var inner: [Int] = []
        var bag: Disposable?
        let outer = subject.subscribe(onNext: { value in
            if value == 1 && bag == nil {
                bag = subject.subscribe(onNext: { inner.append($0) })
            }
        })
        subject.onNext(1)
        subject.onNext(2)
        #expect(inner == [1, 2])
        bag?.dispose()
        outer.dispose()
    }

    /// The walk over the subscribers skips no one who joined before an element and delivers it to no one who joined
    /// during it: the joiner gets the replay instead, once. Checked on both walks, a subject's own `onNext` and the
    /// reactor loop's publish to its state relay, with subscribers after the one that subscribes, and through operators.
    @Test("A5 a subscriber added during a delivery gets the replay once, not the element being delivered; those after it get the element")
    func joiningDuringTheWalkGetsOnlyTheReplay() {
        // Disposed by hand at the end: the first subscriber's closure holds this list, which holds its subscription.
        var subscriptions: [Disposable] = []
        let subject = BehaviorRelay(value: 0)
        var joined: [Int] = [], after: [Int] = [], mapped: [Int] = []
        subscriptions.append(subject.subscribe(onNext: { value in
            guard value == 1 else { return }
            subscriptions.append(subject.subscribe(onNext: { joined.append($0) }))
        }))
        subscriptions.append(subject.subscribe(onNext: { after.append($0) }))
        subscriptions.append(subject.map { $0 * 10 }.subscribe(onNext: { mapped.append($0) }))
        subject.accept(1)
        subject.accept(2)
        #expect(joined == [1, 2])
        #expect(after == [0, 1, 2])
        #expect(mapped == [0, 10, 20])

        let reactor = WalkedReactor()
        var joinedStates: [Int] = [], laterStates: [Int] = []
        subscriptions.append(reactor.state.subscribe(onNext: { state in
            guard state.value == 1 else { return }
            subscriptions.append(reactor.state.map(\.value).subscribe(onNext: { joinedStates.append($0) }))
        }))
        subscriptions.append(reactor.state.map(\.value).subscribe(onNext: { laterStates.append($0) }))
        reactor.action.onNext(())
        reactor.action.onNext(())
        #expect(joinedStates == [1, 2])
        #expect(laterStates == [0, 1, 2])
        subscriptions.forEach { $0.dispose() }
        subscriptions = []
    }

    /// Also shows that a dispose from inside the observer does not wait for its own delivery (A3): it would hang.
    @Test func disposingFromInsideADeliveryStopsAtOnce() {
        let subject = PublishSubject<Int>()
        var received: [Int] = []
        var subscription: Disposable?
        subscription = subject.subscribe(onNext: { value in
            received.append(value)
            subscription?.dispose()
            subject.onNext(value + 1)
        })
        subject.onNext(1)
        #expect(received == [1])
    }

    /// A subject whose first subscription sits in `owner`'s dispose bag: the owner's death disposes it, which takes
    /// the subject's lock. The tests below make a subscription's closures the owner's last holders, so that the owner
    /// dies when those closures are released: it must happen outside the subject's lock, or it deadlocks there (B12).
    final class OwnedSubscriptionFixture {
        final class Owner {
            let bag = DisposeBag()
        }
        final class Received {
            var values: [Int] = []
        }
        let subject = PublishSubject<Int>()
        var owner: Owner? = Owner()
        /// What the owned subscription received.
        let ownedReceived = Received()

        init() {
            subject.subscribe(onNext: { [ownedReceived] in ownedReceived.values.append($0) }).disposed(by: owner!.bag)
        }
    }

    /// A subscriber that disposes itself during its delivery leaves the delivering thread holding the last
    /// reference to its closures.
    @Test("A3 and B12: closures that die after their own delivery are released outside the subject's lock")
    func closuresDyingAfterTheirDeliveryAreReleasedOutsideTheLock() {
        let fixture = OwnedSubscriptionFixture()
        var subscription: Disposable?
        var received: [Int] = []
        subscription = fixture.subject.subscribe(onNext: { [owner = fixture.owner] value in
            withExtendedLifetime(owner) { received.append(value) }
            subscription?.dispose()
        })
        fixture.owner = nil
        fixture.subject.onNext(1) // the owner dies once this delivery returns; its bag disposes the first subscription
        fixture.subject.onNext(2)
        #expect(received == [1])
        #expect(fixture.ownedReceived.values == [1])
        #expect(!fixture.subject.hasObservers)
    }

    /// The same when the dispose comes from outside any delivery, for a subject subscription and for a sink.
    @Test("A3 and B12: disposing releases the subscription's closures outside the subject's lock")
    func disposeReleasesClosuresOutsideTheLock() {
        let fixture = OwnedSubscriptionFixture()
        let subscription = fixture.subject.subscribe(onNext: { [owner = fixture.owner] _ in withExtendedLifetime(owner) {} })
        let operatorSubscription = fixture.subject.map { [owner = fixture.owner] value in withExtendedLifetime(owner) { value } }.subscribe()
        fixture.owner = nil
        fixture.subject.onNext(1)
        subscription.dispose() // hangs if the closure, the owner's last holder but one, dies under the lock
        operatorSubscription.dispose() // the last holder: the owner dies here and its bag disposes the first one
        fixture.subject.onNext(2)
        #expect(fixture.ownedReceived.values == [1])
        #expect(!fixture.subject.hasObservers)
    }

    /// An element sent while the subject is delivering waits in the subject's queue, which then holds its only
    /// reference: once delivered, it must die after the subject's lock, since its deinitialisation is user code.
    @Test("B12: an element that only the subject's queue held dies outside the subject's lock")
    func queuedElementsDieOutsideTheLock() {
        let subject = PublishSubject<DeinitPayload>()
        var received: [String] = []
        let subscription = subject.subscribe(onNext: { payload in
            received.append(payload.name)
            if payload.name == "first" {
                // Queued (the subject is delivering "first"); nobody else keeps it.
                subject.onNext(DeinitPayload("queued", onDeinit: { subject.onNext(DeinitPayload("from deinit")) }))
            }
        })
        subject.onNext(DeinitPayload("first")) // hangs if "queued" dies under the lock: its deinit sends to the subject
        #expect(received == ["first", "queued", "from deinit"])
        subscription.dispose()
    }

    /// Every fused operator can be first over a subject and take elements alone; the ones that end the stream
    /// themselves (`take`, `take(while:)`) end only their own subscription, at once.
    @Test func fusedOperatorsFirstOverASubjectTakeElementsAlone() {
        let subject = BehaviorSubject(value: 0)
        var skipped: [Int] = [], taken: [Event<Int>] = [], takenWhile: [Event<Int>] = [], scanned: [Int] = []
        var skippedWhile: [Int] = []
        let bag = DisposeBag()
        subject.skip(1).subscribe(onNext: { skipped.append($0) }).disposed(by: bag)
        subject.take(2).subscribe { taken.append($0) }.disposed(by: bag)
        subject.take(while: { $0 < 2 }, behavior: .inclusive).subscribe { takenWhile.append($0) }.disposed(by: bag)
        subject.scan(into: 100) { $0 += $1 }.subscribe(onNext: { scanned.append($0) }).disposed(by: bag)
        subject.skip(while: { $0 < 3 }).subscribe(onNext: { skippedWhile.append($0) }).disposed(by: bag)
        for value in 1...4 { subject.onNext(value) }
        #expect(skipped == [1, 2, 3, 4])
        #expect(taken == [.next(0), .next(1), .completed])
        #expect(takenWhile == [.next(0), .next(1), .next(2), .completed])
        #expect(scanned == [100, 101, 103, 106, 110])
        #expect(skippedWhile == [3, 4])
        subject.onCompleted()
        #expect(skipped == [1, 2, 3, 4])
    }

    @Test("A5: a terminal event sent from inside a delivery waits behind the elements sent before it; later ones are dropped")
    func aReentrantTerminalEventKeepsItsPlace() {
        let subject = BehaviorSubject(value: 0)
        let asObserver = AnyObserver(subject) // sends through `on(.next)`, not `onNext`
        var first: [Event<Int>] = []
        var second: [Event<Int>] = []
        _ = subject.subscribe { event in
            first.append(event)
            guard event == .next(1) else { return }
            subject.onNext(2)
            asObserver.onNext(3)
            subject.onCompleted()
            subject.onNext(4) // after the end: dropped, and not stored as the value
            #expect((try? subject.value()) == 3, "the value is stored when sent, before it is delivered")
        }
        _ = subject.subscribe { second.append($0) }
        subject.onNext(1)
        #expect(first == [.next(0), .next(1), .next(2), .next(3), .completed])
        #expect(second == [.next(0), .next(1), .next(2), .next(3), .completed])
        var late: [Event<Int>] = []
        _ = subject.subscribe { late.append($0) }
        #expect(late == [.completed])
    }

    @Test("B12: the value a behavior subject lets go of dies outside its lock")
    func aReplacedValueDiesOutsideTheLock() {
        var sentFromDeinit = false
        let subject = BehaviorSubject(value: DeinitPayload("initial"))
        subject.onNext(DeinitPayload("replaced", onDeinit: { sentFromDeinit = true; subject.onNext(DeinitPayload("from deinit")) }))
        var received: [String] = []
        let subscription = subject.subscribe(onNext: { received.append($0.name) })
        subject.onNext(DeinitPayload("last")) // hangs if "replaced" dies under the lock: its deinit sends to the subject
        #expect(sentFromDeinit)
        #expect(received == ["replaced", "last", "from deinit"])
        subscription.dispose()
    }

    @Test("A9 bind(to:) forwards every event to each observer, the end included, as RxCocoa does")
    func bindForwardsEveryEvent() {
        let target = PublishSubject<Int>()
        let other = PublishSubject<Int>()
        let (log, _) = target.log()
        let (otherLog, _) = other.log()
        let binding = Observable.of(1, 2).bind(to: target, other)
        binding.dispose()
        #expect(log.events == [.next(1), .next(2), .completed])
        #expect(otherLog.events == [.next(1), .next(2), .completed])
        let optionalTarget = PublishSubject<Int?>()
        let (optionalLog, _) = optionalTarget.log()
        _ = Observable.just(3).bind(to: optionalTarget)
        #expect(optionalLog.events == [.next(3), .completed])
    }

    @Test("A9 bind(to:) forwards an error to a subject; a Binder reports it through Diagnostics instead of applying it")
    func bindForwardsErrors() {
        let collected = DiagnosticsCollector()
        defer { collected.stop() }
        let target = PublishSubject<Int>()
        let (log, _) = target.log()
        _ = Observable<Int>.error(TestError("bind")).bind(to: target)
        #expect(log.events == [.error(TestError("bind"))])
        #expect(collected.matching("TestError(bind)").isEmpty)

        final class Box { var value = 0 }
        let box = Box()
        _ = Observable<Int>.error(TestError("bind-binder"))
            .bind(to: Binder(box, scheduler: CurrentThreadScheduler.instance) { $0.value = $1 })
        #expect(collected.matching("TestError(bind-binder)").map(\.kind) == [.bindingError])
        #expect(box.value == 0)
    }

    /// `subscribe(onNext:)`, and a chain that starts with `map` (or `pulse`), take a subject's elements without the
    /// event around them; other subscribers take events. Both kinds share one order: the subscription order per
    /// element, each element to everyone before the next, a replay before what was sent during it.
    @Test("A2 and A5: elements reach element handlers and event handlers in one order")
    func elementAndEventHandlersShareOneOrder() {
        let subject = BehaviorSubject(value: 0)
        var order: [String] = []
        let bag = DisposeBag()
        subject.subscribe(onNext: { order.append("a\($0)") }).disposed(by: bag)
        subject.subscribe { event in
            if case .next(let value) = event { order.append("b\(value)") }
        }.disposed(by: bag)
        subject.map { $0 * 10 }.filter { $0 != 20 }.subscribe(onNext: { value in
            order.append("c\(value)")
            if value == 10 { subject.onNext(2) } // reentrant: after 1 has reached everyone
        }).disposed(by: bag)
        #expect(order == ["a0", "b0", "c0"])
        order = []
        subject.onNext(1)
        #expect(order == ["a1", "b1", "c10", "a2", "b2"])

        // A subscriber added from inside a delivery gets its replay (three elements, queued) before anything newer.
        let replaying = ReplaySubject<Int>.create(bufferSize: 3)
        var late: [Int] = []
        var lateSubscription: Disposable?
        replaying.subscribe(onNext: { value in
            guard value == 3, lateSubscription == nil else { return }
            lateSubscription = replaying.map { $0 }.subscribe(onNext: { late.append($0) })
            replaying.onNext(4)
        }).disposed(by: bag)
        for value in 1...3 { replaying.onNext(value) }
        replaying.onNext(5)
        #expect(late == [1, 2, 3, 4, 5])
        lateSubscription?.dispose()
    }

    /// A `map` that throws on a subject's element ends its own subscription with the error, and nothing else.
    @Test("A1 and A6: a throwing map over a subject ends only its own subscription")
    func aThrowingMapOverASubjectEndsOnlyItsSubscription() {
        let subject = PublishSubject<Int>()
        var mapped: [Event<Int>] = []
        var plain: [Int] = []
        let mappedSubscription = subject.map { value -> Int in
            if value == 2 { throw TestError("two") }
            return value * 10
        }.subscribe { mapped.append($0) }
        let plainSubscription = subject.subscribe(onNext: { plain.append($0) })
        subject.onNext(1)
        subject.onNext(2)
        subject.onNext(3)
        #expect(mapped == [.next(10), .error(TestError("two"))])
        #expect(plain == [1, 2, 3])
        plainSubscription.dispose()
        #expect(!subject.hasObservers, "the failed chain's subscription was removed when it failed")
        mappedSubscription.dispose()
    }

    /// `distinctUntilChanged` first in a chain over a subject takes elements alone (the element lane): it must drop
    /// and forward exactly as through events, reentrant sends included, and a throwing comparer ends the chain.
    @Test func distinctUntilChangedOverASubjectTakesElementsInOrder() {
        let subject = PublishSubject<String>()
        var distinct: [Event<String>] = []
        let subscription = subject.distinctUntilChanged { previous, next in
            if next == "boom" { throw TestError("comparer") }
            return previous.lowercased() == next.lowercased()
        }.subscribe { event in
            distinct.append(event)
            if event == .next("b") { subject.onNext("B") } // reentrant: queued, then dropped as equal to "b"
            if event == .next("c") { subject.onNext("d") } // reentrant: queued before "C", which then differs
        }
        for value in ["a", "A", "b", "c", "C", "boom", "e"] { subject.onNext(value) }
        #expect(distinct == [.next("a"), .next("b"), .next("c"), .next("d"), .next("C"), .error(TestError("comparer"))])
        #expect(!subject.hasObservers)
        subscription.dispose()
    }

    @Test func anUnhandledErrorIsReportedNotFatal() {
        let collected = DiagnosticsCollector()
        defer { collected.stop() }
        _ = Observable<Int>.error(TestError("unhandled")).subscribe(onNext: { _ in })
        #expect(collected.matching("TestError(unhandled)").map(\.kind) == [.unhandledError])
    }
}

/// Collects diagnostics while a test runs; tests filter by their own error text since tests run in parallel.
final class DiagnosticsCollector: @unchecked Sendable { // `collected` is guarded by `lock`
    private let lock = NSLock()
    private var collected: [Diagnostic] = []
    private var token: Diagnostics.Token?

    init() {
        token = Diagnostics.addObserver { [weak self] diagnostic in
            guard let self else { return }
            self.lock.withLock { self.collected.append(diagnostic) }
        }
    }

    func matching(_ text: String) -> [Diagnostic] {
        lock.withLock { collected.filter { $0.description.contains(text) } }
    }

    func stop() {
        if let token { Diagnostics.removeObserver(token) }
    }
}

extension SubjectTests {
    @Test("A5 ReplayRelay replays its latest elements to each new observer and never ends; relays turn into Infallibles")
    func replayRelay() {
        let relay = ReplayRelay<Int>.create(bufferSize: 2)
        relay.accept(1)
        relay.accept(2)
        relay.accept(3)
        let (late, lateSubscription) = relay.log()
        relay.accept(4)
        #expect(late.events == [.next(2), .next(3), .next(4)])
        let none = ReplayRelay<Int>.create(bufferSize: 0)
        none.accept(1)
        let (fresh, freshSubscription) = none.log()
        #expect(fresh.events == [])
        let bound = Observable.of(5, 6).bind(to: relay)
        #expect(late.events == [.next(2), .next(3), .next(4), .next(5), .next(6)]) // the source's end does not end the relay
        let (infallible, infallibleSubscription) = relay.asInfallible().asObservable().log()
        #expect(infallible.elements == [5, 6])
        let behavior = BehaviorRelay(value: 1)
        #expect(behavior.asInfallible().asObservable().log().0.elements == [1])
        let publish = PublishRelay<Int>()
        let (published, publishedSubscription) = publish.asInfallible().asObservable().log()
        publish.accept(7)
        #expect(published.elements == [7])
        for subscription in [lateSubscription, freshSubscription, bound, infallibleSubscription, publishedSubscription] { subscription.dispose() }
    }
}

/// A counter whose every action adds one, for the walk over the state relay's subscribers.
private final class WalkedReactor: Reactor {
    struct State { var value = 0 }
    let initialState = State()
    let reactorStorage = ReactorStorage()

    func reduce(state: State, mutation: Void) -> State {
        State(value: state.value + 1)
    }
}
