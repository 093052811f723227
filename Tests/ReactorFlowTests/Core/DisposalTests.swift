import Foundation
import ReactorFlow
import ReactorFlowTesting
import Testing

final class Token {}

@Suite("Disposal (A3)")
struct DisposalTests {
    @Test func disposeIsIdempotentEverywhere() {
        let count = Counter()
        let action = Disposables.create { count.increment() }
        action.dispose()
        action.dispose()
        #expect(count.count == 1)
        #expect(action.isDisposed)

        let composite = CompositeDisposable()
        composite.insert(Disposables.create { count.increment() })
        composite.dispose()
        composite.dispose()
        #expect(count.count == 2)
        #expect(composite.insert(Disposables.create { count.increment() }) == nil)
        #expect(count.count == 3)

        let serial = SerialDisposable()
        serial.disposable = Disposables.create { count.increment() }
        serial.disposable = Disposables.create { count.increment() }
        #expect(count.count == 4)
        serial.dispose()
        serial.dispose()
        #expect(count.count == 5)
        serial.disposable = Disposables.create { count.increment() }
        #expect(count.count == 6)

        let single = SingleAssignmentDisposable()
        single.dispose()
        single.setDisposable(Disposables.create { count.increment() })
        #expect(count.count == 7)
    }

    /// A holder lets go of what it disposes: the replaced disposable of a `SerialDisposable`, the one removed from a
    /// `CompositeDisposable`, and what either held when disposed, each disposed exactly once and outside the holder's
    /// lock (the first one reads the holder, which takes that lock, from its `dispose()`).
    @Test("A3 and B12: a disposable holder disposes what it lets go of once, outside its lock, and keeps no reference to it")
    func holdersReleaseWhatTheyDispose() {
        final class Tracked: Disposable {
            let count: Counter
            let whileDisposing: () -> Void
            init(_ count: Counter, whileDisposing: @escaping () -> Void = {}) {
                self.count = count
                self.whileDisposing = whileDisposing
            }
            func dispose() {
                whileDisposing()
                count.increment()
            }
        }
        let count = Counter()
        weak var replaced: Tracked?
        weak var lastHeld: Tracked?
        let serial = SerialDisposable()
        var sawHolderDisposed: Bool?
        do {
            let first = Tracked(count) { sawHolderDisposed = serial.isDisposed }
            replaced = first
            serial.disposable = first
            let second = Tracked(count)
            lastHeld = second
            serial.disposable = second
        }
        #expect(count.count == 1)
        #expect(sawHolderDisposed == false)
        #expect(replaced == nil)
        #expect(lastHeld != nil)
        serial.dispose()
        #expect(count.count == 2)
        #expect(lastHeld == nil)

        weak var removed: Tracked?
        let composite = CompositeDisposable()
        let key = {
            let tracked = Tracked(count)
            removed = tracked
            return composite.insert(tracked)!
        }()
        composite.remove(for: key)
        #expect(count.count == 3)
        #expect(removed == nil)

        weak var assigned: Tracked?
        let single = SingleAssignmentDisposable()
        do {
            let tracked = Tracked(count)
            assigned = tracked
            single.setDisposable(tracked)
        }
        single.dispose()
        #expect(count.count == 4)
        #expect(assigned == nil)
    }

    @Test("A3 a CompositeDisposable disposes what it still holds once, in insertion order, after removals between")
    func compositeDisposesInInsertionOrder() {
        var order: [Int] = []
        let composite = CompositeDisposable()
        let keys = (0..<40).map { value in composite.insert(Disposables.create { order.append(value) })! }
        for index in stride(from: 0, to: 40, by: 3) { composite.remove(for: keys[index]) }
        #expect(order == Array(stride(from: 0, to: 40, by: 3)))
        order = []
        composite.dispose()
        composite.dispose()
        #expect(order == (0..<40).filter { !$0.isMultiple(of: 3) })
        #expect(composite.isDisposed)
    }

    @Test func compositeRemovesOne() {
        let count = Counter()
        let composite = CompositeDisposable()
        let key = composite.insert(Disposables.create { count.increment() })!
        composite.insert(Disposables.create { count.increment() })
        composite.remove(for: key)
        #expect(count.count == 1)
        #expect(composite.count == 1)
    }

    @Test func disposeBagDisposesOnDeinitReplaceAndLateInsert() {
        let count = Counter()
        var bag: DisposeBag? = DisposeBag()
        Disposables.create { count.increment() }.disposed(by: bag!)
        bag = nil
        #expect(count.count == 1)

        var replaced = DisposeBag()
        Disposables.create { count.increment() }.disposed(by: replaced)
        replaced = DisposeBag()
        #expect(count.count == 2)

        replaced.dispose()
        Disposables.create { count.increment() }.disposed(by: replaced)
        #expect(count.count == 3)
        _ = replaced
    }

    @Test("A3 a DisposeBag made or filled from a list, an array or a builder block disposes each once, in order")
    func disposeBagListsArraysAndBuilderBlocks() {
        var order: [String] = []
        func marker(_ name: String) -> Disposable { Disposables.create { order.append(name) } }

        var listed: DisposeBag? = DisposeBag(disposing: marker("a"), marker("b"))
        listed?.insert(marker("c"), marker("d"))
        listed?.insert([marker("e")])
        listed?.insert {
            marker("f")
            marker("g")
        }
        listed = nil
        #expect(order == ["a", "b", "c", "d", "e", "f", "g"])

        order = []
        let built = DisposeBag {
            marker("h")
            marker("i")
        }
        let fromArray = DisposeBag(disposing: [marker("j")])
        built.dispose()
        fromArray.dispose()
        built.dispose()
        #expect(order == ["h", "i", "j"])

        // After the bag is disposed, whatever is inserted is disposed at once, in order.
        built.insert([marker("k"), marker("l")])
        built.insert { marker("m") }
        #expect(order == ["h", "i", "j", "k", "l", "m"])
        #expect(DisposeBag {}.isDisposed == false)
    }

    @Test("A3 Disposables.create with four or more disposables, and BooleanDisposable made disposed")
    func groupsOfFourAndBooleanDisposables() {
        var order: [Int] = []
        func marker(_ value: Int) -> Disposable { Disposables.create { order.append(value) } }
        let group = Disposables.create(marker(1), marker(2), marker(3), marker(4), marker(5))
        #expect(!group.isDisposed)
        group.dispose()
        group.dispose()
        #expect(group.isDisposed)
        #expect(order == [1, 2, 3, 4, 5])

        #expect(BooleanDisposable(isDisposed: true).isDisposed)
        #expect(!BooleanDisposable(isDisposed: false).isDisposed)
        #expect(BooleanDisposable.disposed.isDisposed)
        BooleanDisposable.disposed.dispose()
        #expect(BooleanDisposable.disposed.isDisposed)
    }

    @Test func nothingIsDeliveredAfterDispose() {
        let subject = PublishSubject<Int>()
        var received: [Int] = []
        let subscription = subject.map { $0 * 2 }.filter { $0 > 0 }.subscribe(onNext: { received.append($0) })
        subject.onNext(1)
        subscription.dispose()
        subject.onNext(2)
        #expect(received == [2])
        #expect(!subject.hasObservers)
    }

    @Test func disposingReleasesTheSubscriptionsClosures() {
        weak var weakToken: Token?
        let subject = PublishSubject<Int>()
        let subscription: Disposable
        do {
            let token = Token()
            weakToken = token
            subscription = subject
                .map { value -> Int in _ = token; return value }
                .flatMapLatest { value in Observable.just(value).map { _ = token; return $0 } }
                .subscribe(onNext: { _ in _ = token })
        }
        #expect(weakToken != nil)
        subscription.dispose()
        #expect(weakToken == nil)
    }

    @Test func aTerminalEventReleasesClosures() {
        weak var weakToken: Token?
        let subject = PublishSubject<Int>()
        let subscription: Disposable
        do {
            let token = Token()
            weakToken = token
            subscription = subject.subscribe(onNext: { _ in _ = token }, onDisposed: { _ = token })
        }
        subject.onCompleted()
        #expect(weakToken == nil)
        _ = subscription
    }

    @Test func onDisposedRunsOnceOnTerminalOrDispose() {
        var disposed = 0
        _ = Observable.of(1).subscribe(onDisposed: { disposed += 1 })
        #expect(disposed == 1)
        let subscription = Observable<Int>.never().subscribe(onDisposed: { disposed += 1 })
        subscription.dispose()
        subscription.dispose()
        #expect(disposed == 2)
    }

    /// Also through fused single-source operators, whose one sink is the subscriber's boundary sink. A chain over a
    /// subject hands the subject an element handler that it calls without retaining it, so a dispose during the call
    /// leaves the handler's release to the delivering thread: it must still happen before dispose() returns.
    @Test("A3: dispose() on another thread returns only after a delivery in progress has returned and the subscriber's closures are released",
          arguments: [false, true])
    func disposeWaitsForADeliveryInProgress(throughOperators: Bool) {
        let subject = PublishSubject<Int>()
        let source = throughOperators ? subject.map { $0 * 2 }.filter { _ in true } : subject.asObservable()
        let log = LockedArray<String>()
        let entered = DispatchSemaphore(value: 0)
        let disposeStarted = DispatchSemaphore(value: 0)
        let disposed = DispatchSemaphore(value: 0)
        let subscription: Disposable
        do {
            let payload = DeinitPayload("closure's capture") { log.append("closures released") }
            subscription = source.subscribe(
                onNext: { _ in
                    _ = payload
                    entered.signal()
                    disposeStarted.wait() // the other thread is inside dispose() now
                    log.append("observer returned")
                },
                onDisposed: { disposeStarted.signal() }
            )
        }
        let shared = Shared(subscription)
        Thread.detachNewThread {
            entered.wait()
            shared.value.dispose()
            log.append("dispose returned")
            disposed.signal()
        }
        subject.onNext(1)
        disposed.wait()
        subject.onNext(2)
        #expect(log.all == ["observer returned", "closures released", "dispose returned"])
    }

    /// The closures die outside the subject's lock (B12): their capture's deinitialisation disposes another
    /// subscription to the same subject, which takes that lock (it hangs if they die under it).
    @Test("A1/A3/B12: a subscriber that disposes itself inside onNext keeps running safely, gets nothing more, and its closures die outside the lock when it returns",
          arguments: [false, true])
    func disposingFromInsideTheElementHandler(throughOperators: Bool) {
        let subject = BehaviorSubject(value: 0)
        let source = throughOperators ? subject.map { $0 + 100 } : subject.asObservable()
        var log: [String] = []
        var subscription: Disposable?
        let neighbour = subject.subscribe(onNext: { _ in })
        do {
            let payload = DeinitPayload("closure's capture") {
                neighbour.dispose()
                log.append("closures released")
            }
            subscription = source.subscribe(onNext: { value in
                guard value % 100 == 1 else { return }
                subscription?.dispose()
                log.append("still inside \(payload.name) after dispose")
            })
        }
        subject.onNext(1)
        log.append("onNext returned")
        subject.onNext(2)
        #expect(log == ["still inside closure's capture after dispose", "closures released", "onNext returned"])
        #expect(!subject.hasObservers)
    }

    @Test("A3 and B12: an operator dropping an inner stream that is delivering does not wait for it (no deadlock)")
    func operatorsDoNotWaitForTheirInnerDeliveries() {
        let outer = PublishSubject<Int>()
        let inner = PublishSubject<Int>()
        let received = LockedArray<Int>()
        let otherThreadReturned = DispatchSemaphore(value: 0)
        let waited = LockedArray<DispatchTimeoutResult>()
        let subscription = outer.flatMapLatest { value in value == 0 ? inner.asObservable() : Observable.just(value) }
            .subscribe(onNext: { value in
                received.append(value)
                guard value == 100 else { return }
                // Inside the inner stream's delivery, wait for a thread whose element makes flatMapLatest drop that
                // inner stream. Were that drop to wait for this delivery, neither thread would ever go on.
                Thread.detachNewThread {
                    outer.onNext(1)
                    otherThreadReturned.signal()
                }
                waited.append(otherThreadReturned.wait(timeout: .now() + 30))
            })
        outer.onNext(0)
        inner.onNext(100)
        inner.onNext(200) // dropped: the inner stream was replaced
        #expect(waited.all == [.success])
        #expect(received.all == [100, 1])
        subscription.dispose()
    }
}

