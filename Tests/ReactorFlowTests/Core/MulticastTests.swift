import Foundation
import ReactorFlow
import ReactorFlowTesting
import Testing

/// `publish`, `replay`, `replayAll` and `multicast`: one subscription to the source per connection, through a subject
/// that belongs to that connection (RxSwift 6's rules; see `Operators/Share/README.md`).
@Suite("Multicast and connectable streams (A4)")
struct MulticastTests {
    @Test("A4 replay makes a new subject for each connection: a subscriber after the source ended waits for the next connect")
    func replayHasASubjectPerConnection() {
        let clock = TestScheduler(initialClock: 0)
        let source = clock.createHotObservable([
            .next(110, 1), .next(210, 2), .next(310, 3), .completed(320), .next(410, 4), .next(510, 5),
        ])
        let replayed = source.replay(1)
        let early = clock.createObserver(Int.self)
        let between = clock.createObserver(Int.self)
        let afterEnd = clock.createObserver(Int.self)
        var connection: Disposable?
        clock.scheduleAt(100) { _ = replayed.subscribe(early) }
        clock.scheduleAt(200) { connection = replayed.connect() }
        clock.scheduleAt(250) { _ = replayed.subscribe(between) }
        clock.scheduleAt(350) { _ = replayed.subscribe(afterEnd) }
        clock.scheduleAt(400) { connection = replayed.connect() }
        clock.scheduleAt(450) { connection?.dispose() }
        clock.start()
        #expect(early.events == [.next(210, 2), .next(310, 3), .completed(320)])
        #expect(between.events == [.next(250, 2), .next(310, 3), .completed(320)])
        #expect(afterEnd.events == [.next(410, 4)])
        #expect(source.subscriptions == [Subscription(200, 320), Subscription(400, 450)])
    }

    @Test("A4 publish and replayAll: a late subscriber gets nothing of an ended connection, and the next connect runs the source again")
    func publishAndReplayAllStartOverOnTheNextConnect() {
        let published = Observable.of(1, 2).publish()
        let (early, _) = published.log()
        _ = published.connect()
        let (late, _) = published.log()
        #expect(early.events == [.next(1), .next(2), .completed])
        #expect(late.events == [])
        _ = published.connect()
        #expect(late.events == [.next(1), .next(2), .completed])
        #expect(early.events == [.next(1), .next(2), .completed])

        let all = Observable.of(1, 2, 3).replayAll()
        let (first, _) = all.log()
        _ = all.connect()
        #expect(first.events == [.next(1), .next(2), .next(3), .completed])
        #expect(all.log().0.events == [])
    }

    @Test("A4 multicast(_:) reuses its one subject: it replays to late subscribers and a reconnect feeds it again")
    func multicastReusesItsSubject() {
        let runs = Counter()
        let source = Observable<Int>.deferred { runs.increment(); return .of(1, 2) }
        let subject = ReplaySubject<Int>.create(bufferSize: 1)
        let shared = source.multicast(subject)
        _ = shared.connect()
        #expect(shared.log().0.events == [.next(2), .completed])
        _ = shared.connect()
        #expect(shared.log().0.events == [.next(2), .completed])
        #expect(runs.count == 2)

        // Over a subject that has ended, refCount's subscriber is ended at once and connects nothing.
        let ended = PublishSubject<Int>()
        ended.onCompleted()
        let counted = source.multicast(ended).refCount()
        #expect(counted.log().0.events == [.completed])
        #expect(runs.count == 2)
    }

    @Test("A4 connect returns the same connection while connected; disposing an ended connection again leaves the next one alone")
    func connectIsIdempotentWhileConnected() {
        let input = PublishSubject<Int>()
        let published = input.publish()
        let first = published.connect()
        let again = published.connect()
        let same = (first as AnyObject) === (again as AnyObject) // outside #expect: the compiler crashes on `===` of two casts inside it
        #expect(same)
        first.dispose()
        #expect(!input.hasObservers)
        let next = published.connect()
        let fresh = (next as AnyObject) !== (first as AnyObject)
        #expect(fresh)
        again.dispose()
        #expect(input.hasObservers)
        let (log, _) = published.log()
        input.onNext(7)
        next.dispose()
        input.onNext(8)
        #expect(!input.hasObservers)
        #expect(log.events == [.next(7)])
    }

    @Test("A4 refCount over multicast(makeSubject:): a subscriber from the end's handler starts a new connection with a new subject")
    func refCountResubscribesFromTheEndHandler() {
        let clock = TestScheduler(initialClock: 0)
        let first = clock.createColdObservable([.next(10, 1), .completed(20)])
        let second = clock.createColdObservable([.next(5, 2), .completed(15)])
        var attempts = 0
        let source = Observable<Int>.deferred {
            attempts += 1
            return attempts == 1 ? first.asObservable() : second.asObservable()
        }
        let counted = source.multicast(makeSubject: { PublishSubject<Int>() }).refCount()
        let observer = clock.createObserver(Int.self)
        var resubscribe = true
        clock.scheduleAt(300) {
            _ = counted.subscribe { event in
                observer.on(event)
                if event.isCompleted, resubscribe {
                    resubscribe = false
                    _ = counted.subscribe(observer)
                }
            }
        }
        clock.start()
        #expect(observer.events == [.next(310, 1), .completed(320), .next(325, 2), .completed(335)])
        #expect(first.subscriptions == [Subscription(300, 320)])
        #expect(second.subscriptions == [Subscription(320, 335)])
    }

    @Test("A4 multicast(_:selector:) shares one subscription among the selector's uses, with a new subject per subscriber")
    func multicastWithSelector() {
        let runs = Counter()
        let made = Counter()
        let source = Observable<Int>.deferred { runs.increment(); return .of(1, 2, 3) }
        let pairs = source.multicast({ made.increment(); return PublishSubject<Int>() }, selector: { shared in
            Observable.zip(shared, shared.skip(1)) { "\($0)\($1)" }
        })
        #expect(pairs.log().0.events == [.next("12"), .next("23"), .completed])
        #expect(pairs.log().0.events == [.next("12"), .next("23"), .completed])
        #expect(runs.count == 2)
        #expect(made.count == 2)

        let noSubject = Observable.of(1).multicast({ () throws -> PublishSubject<Int> in throw TestError("subject") },
                                                   selector: { $0 })
        #expect(noSubject.log().0.events == [.error(TestError("subject"))])
        let noSelector = Observable.of(1).multicast({ PublishSubject<Int>() },
                                                    selector: { _ throws -> Observable<Int> in throw TestError("selector") })
        #expect(noSelector.log().0.events == [.error(TestError("selector"))])
    }

    @Test("B12 the subject of an ended connection dies outside the connectable's lock")
    func anEndedConnectionsSubjectDiesOutsideTheLock() {
        let input = PublishSubject<Int>()
        weak var shared: ConnectableObservable<Int>?
        let reconnected = Counter()
        var armed = true
        let connectable = input.multicast(makeSubject: { () -> DeinitReportingSubject in
            let subject = DeinitReportingSubject()
            if armed {
                armed = false
                // Its deinitialisation reconnects: under the connectable's lock, this would hang.
                subject.onDeinit = { _ = shared?.connect(); reconnected.increment() }
            }
            return subject
        })
        shared = connectable
        let connection = connectable.connect()
        connection.dispose()
        #expect(reconnected.count == 1)
        #expect(input.hasObservers)
        connectable.connect().dispose()
        #expect(!input.hasObservers)
    }
}

/// A subject that runs `onDeinit` when it dies.
private final class DeinitReportingSubject: SubjectType {
    typealias Element = Int

    private let inner = PublishSubject<Int>()
    var onDeinit: (() -> Void)?

    func subscribe<Observer: ObserverType>(_ observer: Observer) -> Disposable where Observer.Element == Int {
        inner.subscribe(observer)
    }

    func asObserver() -> AnyObserver<Int> { inner.asObserver() }

    deinit { onDeinit?() }
}
