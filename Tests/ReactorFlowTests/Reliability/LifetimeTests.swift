import ReactorFlow
import ReactorFlowTesting
import Testing

/// Counts the objects it made that are still alive.
final class Census: @unchecked Sendable { // `alive` is only touched on the test's thread
    final class Member {
        private let census: Census
        init(_ census: Census) {
            self.census = census
            census.alive += 1
        }
        deinit { census.alive -= 1 }
    }

    private(set) var alive = 0
    func member() -> Member { Member(self) }
}

@Suite("Lifetime: every operator releases what a subscription created")
struct LifetimeTests {
    static let cyclesPerOperator = 10_000

    /// One chain per operator, built fresh each cycle over a long-lived subject.
    static func chains(_ scheduler: TestScheduler) -> [(String, (Observable<Int>) -> Observable<Int>)] {
        [
            ("map", { $0.map { $0 + 1 } }),
            ("filter", { $0.filter { _ in true } }),
            ("compactMap", { $0.compactMap { $0 } }),
            ("scan", { $0.scan(0, accumulator: +) }),
            ("distinctUntilChanged", { $0.distinctUntilChanged() }),
            ("take", { $0.take(5) }),
            ("skip", { $0.skip(0) }),
            ("take(while:)", { $0.take(while: { _ in true }) }),
            ("startWith", { $0.startWith(0) }),
            ("do", { $0.do(onNext: { _ in }) }),
            ("flatMap", { $0.flatMap { Observable.just($0) } }),
            ("flatMapLatest", { $0.flatMapLatest { Observable.just($0) } }),
            ("flatMapFirst", { $0.flatMapFirst { Observable.just($0) } }),
            ("concatMap", { $0.concatMap { Observable.just($0) } }),
            ("merge", { Observable.merge($0, Observable<Int>.never()) }),
            ("concat", { $0.concat(Observable.just(0)) }),
            ("combineLatest", { Observable.combineLatest($0, Observable.just(1)) { $0 + $1 } }),
            ("zip", { Observable.zip($0, Observable.of(1, 2)) { $0 + $1 } }),
            ("withLatestFrom", { $0.withLatestFrom(Observable.just(1)) { $0 + $1 } }),
            ("take(until:)", { $0.take(until: Observable<Int>.never()) }),
            ("catch", { $0.catch { _ in .just(0) } }),
            ("retry", { $0.retry(3) }),
            ("debounce", { $0.debounce(.milliseconds(10), scheduler: scheduler) }),
            ("throttle", { $0.throttle(.milliseconds(10), scheduler: scheduler) }),
            ("delay", { $0.delay(.milliseconds(10), scheduler: scheduler) }),
            ("timeout", { $0.timeout(.milliseconds(10), scheduler: scheduler) }),
            ("observe(on:)", { $0.observe(on: scheduler) }),
            ("subscribe(on:)", { $0.subscribe(on: scheduler) }),
            ("share(replay:)", { $0.share(replay: 1) }),
            ("replay.refCount", { $0.replay(1).refCount() }),
            ("publish.refCount", { $0.publish().refCount() }),
        ]
    }

    /// For each operator, 10,000 times: build the chain, subscribe with a closure that holds a counted object, send
    /// an element, let the scheduler run what is due, dispose. Right after each dispose the closure's object must be
    /// gone, the chain itself released, and the subject left with no observer; timers may be cancelled but must not
    /// keep anything alive.
    @Test func everyOperatorReleasesEverythingAtDispose() {
        let scheduler = TestScheduler(resolution: .milliseconds(1))
        var checked = 0
        for (name, chain) in Self.chains(scheduler) {
            let subject = PublishSubject<Int>()
            let census = Census()
            var failures = 0
            for cycle in 0..<Self.cyclesPerOperator {
                weak var weakChain: Observable<Int>?
                do {
                    let member = census.member()
                    let observable = chain(subject.asObservable())
                    weakChain = observable
                    let subscription = observable.subscribe(onNext: { _ in _ = member })
                    scheduler.advance(byTicks: 1) // subscribe(on:) subscribes on the scheduler
                    subject.onNext(cycle)
                    scheduler.advance(byTicks: 1)
                    subscription.dispose()
                }
                checked += 1
                // As in RxSwift, subscribe(on:) disposes its source's subscription on the scheduler: the subject is let
                // go one tick later (the subscriber's closures, above, are released at once).
                let aliveAtDispose = census.alive
                if name == "subscribe(on:)" { scheduler.advance(byTicks: 1) }
                if aliveAtDispose != 0 || weakChain != nil || subject.hasObservers {
                    failures += 1
                    if failures <= 2 {
                        Issue.record("\(name), cycle \(cycle): \(census.alive) closure object(s) alive, chain released: \(weakChain == nil), subject still observed: \(subject.hasObservers)")
                    }
                }
            }
            scheduler.advance(by: .seconds(1))
            #expect(failures == 0, "\(name): \(failures) of \(Self.cyclesPerOperator) cycles left something alive")
            #expect(census.alive == 0)
        }
        print("Lifetime: \(Self.chains(scheduler).count) operators × \(Self.cyclesPerOperator) subscribe/dispose cycles, \(checked) released chains checked")
    }
}
