import Foundation
import ReactorFlow
import ReactorFlowTesting
import Testing

/// Checks the event grammar and non-overlapping delivery for one subscription, from any thread.
final class GrammarChecker: @unchecked Sendable { // `ended` and `violations` are guarded by `lock`
    private let lock = NSLock()
    private let overlap = OverlapDetector()
    private var ended = false
    private var disposeReturned = false
    private var violations: [String] = []
    let received = Counter()

    /// Called with each element inside the delivery, for reentrant sends.
    private let reentrantSend: ((Int) -> Void)?

    init(reentrantSend: ((Int) -> Void)? = nil) {
        self.reentrantSend = reentrantSend
    }

    func observer() -> AnyObserver<Int> {
        AnyObserver { [self] event in receive(event) }
    }

    /// Subscribes to `source` with an event observer, or with closures, which a subject and a chain starting with
    /// `map` serve through their element handlers.
    func subscribe(to source: Observable<Int>, withClosures: Bool) -> Disposable {
        guard withClosures else { return source.subscribe(observer()) }
        return source.subscribe(onNext: { [self] in receive(.next($0)) },
                                onError: { [self] in receive(.error($0)) },
                                onCompleted: { [self] in receive(.completed) })
    }

    private func receive(_ event: Event<Int>) {
        if case .next(let value) = event { reentrantSend?(value) }
        overlap.enter()
        defer { overlap.leave() }
        lock.withLock {
            if ended { violations.append("event after terminal: \(event)") }
            if disposeReturned { violations.append("event after dispose() returned: \(event)") }
            if event.isStopEvent { ended = true }
        }
        if case .next = event { received.increment() }
    }

    /// Disposes `subscription`; from the moment `dispose()` returns, any event is a violation (rule A3).
    func dispose(_ subscription: Disposable) {
        subscription.dispose()
        lock.withLock { disposeReturned = true }
    }

    var problems: [String] {
        lock.withLock { violations } + (overlap.overlapCount > 0 ? ["\(overlap.overlapCount) overlapping deliveries"] : [])
    }
}

@Suite("Concurrency torture")
struct TortureTests {
    static let threads = 8
    static let operationsPerThread = 2_000

    @Test("random onNext, reentrant onNext, subscribe and dispose from 8 threads on subjects, merge, flatMapLatest and share")
    func streams() {
        let subject = PublishSubject<Int>()
        let other = PublishSubject<Int>()
        let pipelines: [Observable<Int>] = [
            subject.asObservable(),
            Observable.merge(subject.asObservable(), other.asObservable()),
            subject.flatMapLatest { Observable.of($0, $0 + 1) },
            subject.share(replay: 1),
            subject.map { $0 + 1 },
        ]
        let checkers = LockedArray<GrammarChecker>()
        let shared = Shared((subject, other, pipelines, checkers))
        onThreads(Self.threads) { thread in
            var random = SeededRandom(seed: UInt64(thread) &* 7919)
            var mine: [(GrammarChecker, Disposable)] = []
            let (subject, other, pipelines, checkers) = shared.value
            for step in 0..<Self.operationsPerThread {
                switch random.int(0...9) {
                case 0...5:
                    (random.chance(50) ? subject : other).onNext(step)
                case 6, 7:
                    // Some observers send from inside a delivery: the subject queues it and delivers it after this one.
                    let checker = random.chance(30) ? GrammarChecker(reentrantSend: { value in if value % 50 == 0 { other.onNext(value + 1) } })
                                                    : GrammarChecker()
                    checkers.append(checker)
                    let pipeline = pipelines[random.int(0...pipelines.count - 1)]
                    mine.append((checker, checker.subscribe(to: pipeline, withClosures: random.chance(50))))
                default:
                    if !mine.isEmpty {
                        let (checker, subscription) = mine.remove(at: random.int(0...mine.count - 1))
                        checker.dispose(subscription)
                    }
                }
            }
            for (checker, subscription) in mine { checker.dispose(subscription) }
        }
        let problems = checkers.all.flatMap(\.problems)
        print("Torture: \(Self.threads) threads × \(Self.operationsPerThread) operations on subjects, merge, flatMapLatest, share; \(checkers.all.count) subscriptions checked, \(problems.count) problems")
        #expect(problems.isEmpty, "\(problems.prefix(5))")
        #expect(!subject.hasObservers && !other.hasObservers, "every subscription was disposed")
        #expect(checkers.all.count > 1_000)
    }

    /// One thread sends 0, 1, 2… to a replaying subject while seven subscribe and dispose, half through element
    /// handlers (`subscribe(onNext:)`, a chain starting with `map`), half through event observers: each subscription
    /// must see consecutive numbers, its replay first, then every later element in order, whichever path it takes
    /// and however its replay and the sender's deliveries interleave.
    @Test("A2 and A5: with a sender racing, every subscription gets its replay, then every later element, in order")
    func replayAndLaterElementsStayInOrder() {
        let subject = ReplaySubject<Int>.create(bufferSize: 3)
        let broken = LockedArray<String>()
        let subscriptions = Counter()
        let senderDone = Counter()
        let shared = Shared(subject)
        onThreads(Self.threads) { thread in
            let subject = shared.value
            guard thread > 0 else {
                for value in 0..<(Self.operationsPerThread * 25) { subject.onNext(value) }
                senderDone.increment()
                return
            }
            var random = SeededRandom(seed: UInt64(thread) &* 104_729)
            for round in 0..<(Self.operationsPerThread / 8) {
                // Subscriptions after the sender finished would race nothing.
                guard round == 0 || senderDone.count == 0 else { break }
                let seen = LockedArray<Int>()
                let source = random.chance(50) ? subject.asObservable() : subject.map { $0 }
                let subscription = round.isMultiple(of: 2)
                    ? source.subscribe(onNext: { seen.append($0) })
                    : source.subscribe { event in if case .next(let value) = event { seen.append(value) } }
                for _ in 0..<random.int(0...200) { _ = random.int(0...1) } // let some deliveries through
                subscription.dispose()
                subscriptions.increment()
                let values = seen.all
                if zip(values, values.dropFirst()).contains(where: { $1 != $0 + 1 }) {
                    broken.append("\(round.isMultiple(of: 2) ? "onNext" : "events"): \(values.prefix(8))")
                }
            }
        }
        print("Torture: replay order, \(subscriptions.count) subscriptions racing one sender, \(broken.all.count) out of order")
        #expect(broken.all.isEmpty, "\(broken.all.prefix(3))")
        #expect(!subject.hasObservers)
    }

    @Test("8 threads send actions with reentrant sends from subscribers: nothing lost, reduce never overlaps, reentrant FIFO")
    func reactor() {
        let reactor = ProbeReactor()
        let reentrantOrderBroken = Counter()
        var previousValue = 0
        let subscription = reactor.state.skip(1).subscribe(onNext: { state in
            // Every 100th value asks for two more, which must arrive in the order sent.
            defer { previousValue = state.value }
            if state.value != previousValue && state.value % 100 == 0 {
                reactor.action.onNext(.record("a\(state.value)"))
                reactor.action.onNext(.record("b\(state.value)"))
            }
            if let last = state.log.last, last.hasPrefix("b") {
                let number = last.dropFirst()
                if state.log.dropLast().last != "a\(number)" && !state.log.contains("a\(number)") { reentrantOrderBroken.increment() }
            }
        })
        let shared = Shared(reactor)
        onThreads(Self.threads) { _ in
            for _ in 0..<Self.operationsPerThread { shared.value.action.onNext(.add(1)) }
        }
        subscription.dispose()
        print("Torture: reactor, \(Self.threads) threads × \(Self.operationsPerThread) actions with reentrant sends; reduced \(reactor.currentState.value), \(reactor.reduceOverlaps.overlapCount) overlapping reduce calls")
        #expect(reactor.currentState.value == Self.threads * Self.operationsPerThread)
        #expect(reactor.reduceOverlaps.overlapCount == 0)
        #expect(reentrantOrderBroken.count == 0)
        let records = reactor.currentState.log
        #expect(records.count == 2 * records.filter { $0.hasPrefix("a") }.count, "every reentrant pair arrived")
    }
}

final class LockedArray<Element>: @unchecked Sendable { // `items` is guarded by `lock`
    private let lock = NSLock()
    private var items: [Element] = []
    func append(_ item: Element) { lock.withLock { items.append(item) } }
    var all: [Element] { lock.withLock { items } }
}
