import Dispatch
import ReactorFlow
import ReactorFlowTesting
import Testing

/// RxBlocking's operators (`toBlocking()`), as RxBlocking-based suites call them (rule D5).
@Suite("D5 toBlocking")
struct BlockingTests {
    private enum Failure: Error, Equatable { case boom }

    @Test("D5 toArray, first and last wait for what they ask and return it; an error is thrown")
    func arrayFirstLast() throws {
        #expect(try Observable.of(42, 43, 44).toBlocking().toArray() == [42, 43, 44])
        #expect(try Observable<Int>.empty().toBlocking().toArray() == [])
        #expect(try Observable.of(42, 43, 44).toBlocking().first() == 42)
        #expect(try Observable<Int>.empty().toBlocking().first() == nil)
        #expect(try Observable.of(42, 43, 44).toBlocking().last() == 44)
        #expect(try Observable<Int>.empty().toBlocking().last() == nil)
        #expect(throws: Failure.boom) { try Observable<Int>.error(Failure.boom).toBlocking().toArray() }
        #expect(throws: Failure.boom) { try Observable<Int>.error(Failure.boom).toBlocking().first() }
        #expect(throws: Failure.boom) {
            try Observable.concat(Observable.of(1, 2), Observable<Int>.error(Failure.boom)).toBlocking().last()
        }
        #expect(try Observable.concat(Observable.just(1), Observable<Int>.error(Failure.boom)).toBlocking().first() == 1,
                "first() has its element before the error")
        #expect(try Single.just(7).toBlocking().single() == 7, "every stream convertible to an Observable")
    }

    @Test("D5 first() disposes the subscription at the first element")
    func firstDisposes() throws {
        let subject = BehaviorSubject(value: 1)
        #expect(try subject.toBlocking().first() == 1)
        #expect(!subject.hasObservers)
    }

    @Test("D5 single() needs exactly one element; its predicate sees each element until a second one passes")
    func single() throws {
        #expect(try Observable.just(42).toBlocking().single() == 42)
        #expect(throws: RxError.noElements) { try Observable<Int>.empty().toBlocking().single() }
        #expect(throws: RxError.moreThanOneElement) { try Observable.of(42, 43, 44).toBlocking().single() }
        #expect(throws: Failure.boom) { try Observable<Int>.error(Failure.boom).toBlocking().single() }

        var seen: [Int] = []
        #expect(try Observable.of(42, 43, 44, 45).toBlocking().single { seen.append($0); return $0 == 44 } == 44)
        #expect(seen == [42, 43, 44, 45])
        seen = []
        #expect(throws: RxError.moreThanOneElement) {
            try Observable.of(42, 43, 44, 45).toBlocking().single { seen.append($0); return $0 >= 43 }
        }
        #expect(seen == [42, 43, 44], "it stops at the second match")
        seen = []
        #expect(throws: RxError.noElements) {
            try Observable.of(42, 43).toBlocking().single { seen.append($0); return false }
        }
        #expect(seen == [42, 43])
        seen = []
        #expect(throws: Failure.boom) {
            try Observable.of(42, 43, 44, scheduler: CurrentThreadScheduler.instance).toBlocking().single { element in
                seen.append(element)
                if element == 43 { throw Failure.boom }
                return false
            }
        }
        #expect(seen == [42, 43], "what the predicate throws ends the wait")
    }

    @Test("D5 materialize() returns the elements and how the stream ended, instead of throwing")
    func materialize() {
        guard case .completed(let elements) = Observable.of(1, 2).toBlocking().materialize() else {
            Issue.record("expected a completion")
            return
        }
        #expect(elements == [1, 2])
        let failing = Observable.concat(Observable.of(1, 2), Observable<Int>.error(Failure.boom))
        guard case .failed(let before, let error) = failing.toBlocking().materialize() else {
            Issue.record("expected a failure")
            return
        }
        #expect(before == [1, 2])
        #expect(error as? Failure == .boom)
    }

    @Test("D5 a timeout fails with RxError.timeout, keeping the elements sent before it, and disposes the subscription")
    func timeout() throws {
        let subject = PublishSubject<Int>()
        let stream = Observable.concat(Observable.of(1, 2), subject.asObservable())
        guard case .failed(let elements, let error) = stream.toBlocking(timeout: 0).materialize() else {
            Issue.record("expected a timeout")
            return
        }
        #expect(elements == [1, 2])
        #expect(error as? RxError == .timeout)
        #expect(!subject.hasObservers)
        #expect(throws: RxError.timeout) { try Observable<Int>.never().toBlocking(timeout: 0).first() }
        #expect(throws: RxError.timeout) { try Observable<Int>.never().toBlocking(timeout: -1).toArray() }
        #expect(throws: RxError.timeout) { try Observable<Int>.never().toBlocking(timeout: .nan).single() }
        #expect(try Observable.just(1).toBlocking(timeout: .infinity).toArray() == [1], "infinity waits without limit")
        #expect(try Observable.just(1).toBlocking(timeout: 0).toArray() == [1], "what is sent at once beats any timeout")
    }

    @Test("D5 a stream that ends on another thread is waited for")
    func otherThread() throws {
        let scheduler = ConcurrentDispatchQueueScheduler(qos: .default)
        let stream = Observable.of(1, 2).subscribe(on: scheduler)
        #expect(try stream.toBlocking().toArray() == [1, 2])
        #expect(try stream.toBlocking(timeout: 60).last() == 2)
        #expect(try Observable.of(0, 1, 2, 3, scheduler: scheduler).toBlocking().toArray() == [0, 1, 2, 3])
    }

    @Test("D5 a Driver, which delivers on the main queue, is waited for from a test's own thread")
    func driver() throws {
        let relay = BehaviorRelay(value: 1)
        #expect(try relay.asDriver().toBlocking(timeout: 60).first() == 1)
        #expect(try Driver.of(1, 2, 3).toBlocking(timeout: 60).toArray() == [1, 2, 3])
        #expect(try relay.asDriver().map { $0 * 10 }.toBlocking(timeout: 60).first() == 10)
    }

    @Test("D5 a stream on CurrentThreadScheduler has sent what it can before the wait, inside a trampoline or not")
    func currentThread() throws {
        let stream = Observable.of(1, 2, 3, scheduler: CurrentThreadScheduler.instance)
        #expect(try stream.toBlocking().toArray() == [1, 2, 3])
        var inside: [Int]?
        _ = CurrentThreadScheduler.instance.schedule {
            inside = try? Observable.just(4).toBlocking(timeout: 0).toArray()
        }
        #expect(inside == [4])
    }

    @Test("D5 a reactor's state read through toBlocking, as ReactorKit suites do")
    func reactorState() throws {
        let reactor = BlockingCounterReactor()
        reactor.action.onNext(.increase)
        reactor.action.onNext(.increase)
        #expect(try reactor.state.map(\.count).toBlocking().first() == 2)
        #expect(try reactor.state.map(\.count).take(1).toBlocking().toArray() == [2])
    }

    @Test("D5 on the main queue, a stream ending on another thread is waited for; the main queue stays blocked")
    func insideMainQueueBlock() async {
        let elements: [Int]? = await withCheckedContinuation { continuation in
            DispatchQueue.main.async {
                let stream = Observable.just(5).subscribe(on: ConcurrentDispatchQueueScheduler(qos: .default))
                continuation.resume(returning: try? stream.toBlocking(timeout: 60).toArray())
            }
        }
        #expect(elements == [5])
    }
}

private final class BlockingCounterReactor: Reactor {
    enum Action { case increase }
    struct State { var count = 0 }
    let initialState = State()
    let reactorStorage = ReactorStorage()

    func mutate(action: Action) -> Observable<Action> { .just(action) }

    func reduce(state: State, mutation: Action) -> State {
        var state = state
        state.count += 1
        return state
    }
}
