import FloorAtomics
import Foundation
import HeapStatistics
import ReactorFlow

// The reactors and streams measured. Each scenario returns the nanoseconds one run took and the number of
// operations in it.

/// The one action of the counter scenarios.
enum IncreaseAction { case increase }

final class CounterReactor: Reactor {
    typealias Action = IncreaseAction
    enum Mutation { case increaseValue }
    struct State { var value = 0 }

    let initialState = State()
    let reactorStorage = ReactorStorage()

    func mutate(action: Action) -> Observable<Mutation> { .just(.increaseValue) }

    func reduce(state: State, mutation: Mutation) -> State {
        var state = state
        state.value += 1
        return state
    }
}

final class Concat3Reactor: Reactor {
    typealias Action = IncreaseAction
    enum Mutation { case setLoading(Bool), increaseValue }
    struct State { var value = 0; var isLoading = false }

    let initialState = State()
    let reactorStorage = ReactorStorage()

    func mutate(action: Action) -> Observable<Mutation> {
        .concat(.just(.setLoading(true)), .just(.increaseValue), .just(.setLoading(false)))
    }

    func reduce(state: State, mutation: Mutation) -> State {
        var state = state
        switch mutation {
        case .setLoading(let isLoading): state.isLoading = isLoading
        case .increaseValue: state.value += 1
        }
        return state
    }
}

/// `concat3` with a stream in the middle that is not a `just`, the shape of `api.fetch().map(Mutation.setValue)`
/// answering at once: the mutation stage subscribes to it, and its mutation is reduced inline while it does (B5).
final class MutateStreamReactor: Reactor {
    typealias Action = IncreaseAction
    enum Mutation { case setLoading(Bool), increaseValue(by: Int) }
    struct State { var value = 0; var isLoading = false }

    let initialState = State()
    let reactorStorage = ReactorStorage()
    let response = Observable.just(1)

    func mutate(action: Action) -> Observable<Mutation> {
        .concat(.just(.setLoading(true)), response.map { Mutation.increaseValue(by: $0) }, .just(.setLoading(false)))
    }

    func reduce(state: State, mutation: Mutation) -> State {
        var state = state
        switch mutation {
        case .setLoading(let isLoading): state.isLoading = isLoading
        case .increaseValue(let amount): state.value += amount
        }
        return state
    }
}

final class PulseReactor: Reactor {
    enum Action { case alert(String), tick }
    struct State {
        var ticks = 0
        var fields = Array(repeating: 0, count: 10)
        @Pulse var alert: String?
    }

    let initialState = State()
    let reactorStorage = ReactorStorage()

    func reduce(state: State, mutation: Action) -> State {
        var state = state
        switch mutation {
        case .alert(let message): state.alert = message
        case .tick: state.ticks += 1
        }
        return state
    }
}

/// A screen's worth of state: six strings too long to be stored inline and two arrays, so that copying the state
/// means retaining and releasing eight heap buffers.
final class WideStateReactor: Reactor {
    enum Action { case tick }
    struct State {
        var ticks = 0
        var title = "A title long enough for the heap", subtitle = "A subtitle long enough for the heap"
        var userName = "someone.with.a.long.name", email = "someone.with.a.long.name@example.com"
        var status = "Status: everything is fine here", footer = "A footer long enough for the heap"
        var items = Array(0..<20), tags = ["first tag", "second tag"]
    }

    let initialState = State()
    let reactorStorage = ReactorStorage()

    func reduce(state: State, mutation: Action) -> State {
        var state = state
        state.ticks += 1
        return state
    }
}

/// `pulse`'s count of alerts received.
final class AlertCount {
    @exclusivity(unchecked) var count = 0
}

/// Keeps a value alive and opaque to the optimizer.
@inline(never)
func blackHole<T>(_ value: T) {
    withExtendedLifetime(value) {}
}

func elapsed(_ body: () -> Void) -> UInt64 {
    let start = DispatchTime.now().uptimeNanoseconds
    body()
    return DispatchTime.now().uptimeNanoseconds - start
}

enum Scenarios {
    /// `n` `.increase` actions to a fresh reactor with one state subscriber; checks that none was lost.
    static func actions<R: Reactor>(to makeReactor: @escaping () -> R, value: @escaping (R.State) -> Int) -> (Int) -> UInt64 where R.Action == IncreaseAction {
        { n in
            let reactor = makeReactor()
            var last = 0
            let subscription = reactor.state.subscribe(onNext: { last = value($0) })
            let action = reactor.action
            let time = elapsed { for _ in 0..<n { action.onNext(.increase) } }
            precondition(last == n, "\(R.self) lost actions")
            subscription.dispose()
            return time
        }
    }

    static var counter: (Int) -> UInt64 { actions(to: CounterReactor.init) { $0.value } }
    static var concat3: (Int) -> UInt64 { actions(to: Concat3Reactor.init) { $0.value } }
    static var mutateStream: (Int) -> UInt64 { actions(to: MutateStreamReactor.init) { $0.value } }

    static func pulse(_ n: Int) -> UInt64 {
        let reactor = PulseReactor()
        let bag = DisposeBag()
        // Counted in a class field without run-time exclusivity checks, as the floor's subscriber counts them: a
        // captured `var` would add the runtime's access tracking to every alert here and not there.
        let alerts = AlertCount()
        reactor.pulse(\.$alert).subscribe(onNext: { _ in alerts.count += 1 }).disposed(by: bag)
        for index in pulseFieldIndices() {
            reactor.state.map { $0.fields[index] }.distinctUntilChanged().subscribe(onNext: { blackHole($0) }).disposed(by: bag)
        }
        let action = reactor.action
        let time = elapsed {
            for index in 0..<n { action.onNext(index.isMultiple(of: 2) ? .alert("hi") : .tick) }
        }
        precondition(alerts.count == n / 2 + 1, "pulse lost alerts")
        return time
    }

    /// `pulse`'s ten `state.map{…}.distinctUntilChanged()` subscribers over a wide state, each seeing every action:
    /// what a screen's bindings cost when its state holds strings and arrays.
    static func wideState(_ n: Int) -> UInt64 {
        let reactor = WideStateReactor()
        let bag = DisposeBag()
        var last = 0
        reactor.state.map { $0.ticks }.distinctUntilChanged().subscribe(onNext: { last = $0 }).disposed(by: bag)
        for _ in 1..<10 {
            reactor.state.map { $0.ticks }.distinctUntilChanged().subscribe(onNext: { blackHole($0) }).disposed(by: bag)
        }
        let action = reactor.action
        let time = elapsed { for _ in 0..<n { action.onNext(.tick) } }
        precondition(last == n, "wide-state lost states")
        return time
    }

    /// One state subscriber without an element handler, over `wide-state`'s state: an operator with a sink of its
    /// own (`observe(on:)`, here on a scheduler that runs at once) directly on `state`, which takes the state relay's
    /// event path, compiled once.
    static func stateObserveOn(_ n: Int) -> UInt64 {
        let reactor = WideStateReactor()
        let bag = DisposeBag()
        var last = 0
        reactor.state.observe(on: CurrentThreadScheduler.instance).subscribe(onNext: { last = $0.ticks }).disposed(by: bag)
        let action = reactor.action
        let time = elapsed { for _ in 0..<n { action.onNext(.tick) } }
        precondition(last == n, "state-observe-on lost states")
        return time
    }

    static func fanout(subscribers: Int) -> (Int) -> UInt64 {
        { n in
            let subject = PublishSubject<Int>()
            let bag = DisposeBag()
            var total = 0
            for _ in 0..<subscribers { subject.subscribe(onNext: { total &+= $0 }).disposed(by: bag) }
            let time = elapsed { for value in 0..<n { subject.onNext(value) } }
            blackHole(total)
            return time
        }
    }

    /// `n` elements through `chain` from a subject, with one closure subscriber.
    static func operators(_ chain: @escaping (Observable<Int>) -> Observable<Int>) -> (Int) -> UInt64 {
        { n in
            let subject = PublishSubject<Int>()
            var last = 0
            let subscription = chain(subject.asObservable()).subscribe(onNext: { last = $0 })
            let time = elapsed { for value in 0..<n { subject.onNext(value) } }
            blackHole(last)
            subscription.dispose()
            return time
        }
    }

    static var operatorChain: (Int) -> UInt64 { operators { $0.map { $0 &* 2 }.filter { $0 % 3 != 0 }.distinctUntilChanged().scan(0, accumulator: &+) } }
    static var flatMapJust: (Int) -> UInt64 { operators { $0.flatMap { Observable.just($0) } } }
    static var flatMapLatest: (Int) -> UInt64 { operators { $0.flatMapLatest { Observable.just($0) } } }

    /// `distinctUntilChanged(at:)` over a screen's state, the key path naming a stored property; every other state
    /// repeats the one before it.
    static func distinctAtKeyPath(_ n: Int) -> UInt64 {
        let subject = PublishSubject<ListingState>()
        var last = 0
        let subscription = subject.distinctUntilChanged(at: \.page).subscribe(onNext: { last = $0.page })
        let states = [ListingState(query: "swift", page: 1, results: ["a", "b"]),
                      ListingState(query: "swift", page: 2, results: ["c", "d"])]
        let time = elapsed { for value in 0..<n { subject.onNext(states[(value >> 1) & 1]) } }
        blackHole(last)
        subscription.dispose()
        return time
    }

    static func contended(_ n: Int) -> UInt64 {
        let reactor = CounterReactor()
        let subscription = reactor.state.subscribe(onNext: { blackHole($0) })
        let half = n / 2
        let time = onTwoThreads(sharing: reactor) { reactor in
            let action = reactor.action
            for _ in 0..<half { action.onNext(.increase) }
        }
        precondition(reactor.currentState.value == half * 2, "contended lost actions")
        subscription.dispose()
        return time
    }

    /// The time `body` takes when two new threads run it at once, each with `shared`, which must serialize what
    /// they do with it.
    static func onTwoThreads<Shared: AnyObject>(sharing shared: Shared, _ body: @escaping (Shared) -> Void) -> UInt64 {
        let handOver = HandOver(shared, body)
        return elapsed {
            let group = DispatchGroup()
            for _ in 0..<2 {
                group.enter()
                Thread.detachNewThread {
                    handOver.body(handOver.shared)
                    group.leave()
                }
            }
            group.wait()
        }
    }

    static func createReactor(_ n: Int) -> UInt64 {
        var reactors: [CounterReactor] = []
        var subscriptions: [Disposable] = []
        reactors.reserveCapacity(n)
        subscriptions.reserveCapacity(n)
        let time = elapsed {
            for _ in 0..<n {
                let reactor = CounterReactor()
                subscriptions.append(reactor.state.subscribe(onNext: { blackHole($0) }))
                reactors.append(reactor)
            }
        }
        for subscription in subscriptions { subscription.dispose() }
        blackHole(reactors)
        return time
    }
}


/// The state `Scenarios.distinctAtKeyPath` sends.
struct ListingState {
    var query: String
    var page: Int
    var results: [String]
}
