import Foundation
import ReactorFlow
import ReactorFlowTesting

/// The counter from ReactorKit's README, with only the import changed and the storage line added.
final class ReadmeCounterReactor: Reactor {
    enum Action {
        case increase
        case decrease
    }

    enum Mutation {
        case increaseValue
        case decreaseValue
        case setLoading(Bool)
    }

    struct State: Equatable {
        var value = 0
        var isLoading = false
    }

    let initialState = State()
    let reactorStorage = ReactorStorage()
    let delayScheduler: SchedulerType

    init(delayScheduler: SchedulerType) {
        self.delayScheduler = delayScheduler
    }

    func mutate(action: Action) -> Observable<Mutation> {
        switch action {
        case .increase:
            return Observable.concat([
                Observable.just(Mutation.setLoading(true)),
                Observable.just(Mutation.increaseValue).delay(.milliseconds(500), scheduler: delayScheduler),
                Observable.just(Mutation.setLoading(false)),
            ])
        case .decrease:
            return Observable.concat([
                Observable.just(Mutation.setLoading(true)),
                Observable.just(Mutation.decreaseValue).delay(.milliseconds(500), scheduler: delayScheduler),
                Observable.just(Mutation.setLoading(false)),
            ])
        }
    }

    func reduce(state: State, mutation: Mutation) -> State {
        var state = state
        switch mutation {
        case .increaseValue:
            state.value += 1
        case .decreaseValue:
            state.value -= 1
        case .setLoading(let isLoading):
            state.isLoading = isLoading
        }
        return state
    }
}

/// A reactor whose actions carry an object, to see when the loop lets go of them: it counts them.
final class TokenReactor: Reactor {
    typealias Action = Token
    typealias State = Int

    let initialState = 0
    let reactorStorage = ReactorStorage()

    func reduce(state: Int, mutation: Token) -> Int { state + 1 }
}

/// A configurable reactor for the contract tests.
final class ProbeReactor: Reactor {
    enum Action: Equatable {
        case add(Int)
        case addTwice(Int)
        case fail
        case never
        case record(String)
    }

    enum Mutation {
        case add(Int)
        case record(String)
    }

    struct State: Equatable, Sendable {
        var value = 0
        var log: [String] = []
        @Pulse var alert: String?
    }

    let initialState = State()
    let reactorStorage = ReactorStorage()

    let transformCalls = Counter()
    let reduceOverlaps = OverlapDetector()
    let mutateCalls = Counter()
    let reduceCalls = Counter()
    let neverDisposed: Counter?
    var globalMutations: Observable<Mutation>?
    var stateTransform: ((Observable<State>) -> Observable<State>)?
    var onReduce: ((State) -> Void)?
    var onMutate: ((Action) -> Void)?
    var customScheduler: ImmediateSchedulerType?

    init(neverDisposed: Counter? = nil) {
        self.neverDisposed = neverDisposed
    }

    var scheduler: ImmediateSchedulerType { customScheduler ?? CurrentThreadScheduler.instance }

    func transform(action: Observable<Action>) -> Observable<Action> {
        transformCalls.increment()
        return action
    }

    func transform(mutation: Observable<Mutation>) -> Observable<Mutation> {
        transformCalls.increment()
        guard let globalMutations else { return mutation }
        return Observable.merge(mutation, globalMutations)
    }

    func transform(state: Observable<State>) -> Observable<State> {
        transformCalls.increment()
        return stateTransform?(state) ?? state
    }

    func mutate(action: Action) -> Observable<Mutation> {
        mutateCalls.increment()
        onMutate?(action)
        switch action {
        case .add(let amount):
            return .just(.add(amount))
        case .addTwice(let amount):
            return .concat(.just(.add(amount)), .just(.add(amount)))
        case .fail:
            return .error(ReactorTestError.mutationFailed)
        case .never:
            let disposed = neverDisposed
            return Observable<Mutation>.never().do(onDispose: { disposed?.increment() })
        case .record(let text):
            return .just(.record(text))
        }
    }

    func reduce(state: State, mutation: Mutation) -> State {
        reduceOverlaps.enter()
        defer { reduceOverlaps.leave() }
        reduceCalls.increment()
        var state = state
        switch mutation {
        case .add(let amount):
            state.value += amount
        case .record(let text):
            state.log.append(text)
            if text.hasPrefix("alert:") { state.alert = String(text.dropFirst(6)) }
        }
        onReduce?(state)
        return state
    }
}

/// Each test that counts the diagnostics naming one of these fails its stream with a case of its own: the collector
/// sees every test's diagnostics, and tests run in parallel.
enum ReactorTestError: Error, Equatable {
    case mutationFailed
    case globalStreamFailed
    case stateStreamFailed
}

/// A reactor whose Mutation defaults to its Action and which relies on the default `mutate`.
final class EchoReactor: Reactor {
    enum Action {
        case set(Int)
    }

    struct State {
        var value = 0
    }

    let initialState = State()
    let reactorStorage = ReactorStorage()

    func reduce(state: State, mutation: Action) -> State {
        switch mutation {
        case .set(let value):
            return State(value: value)
        }
    }
}

/// A counter for load tests: `mutate` returns `.just`.
final class LoadCounterReactor: Reactor {
    enum Action { case increase }
    enum Mutation { case increase }
    struct State { var value = 0 }

    let initialState = State()
    let reactorStorage = ReactorStorage()
    let overlaps = OverlapDetector()

    func mutate(action: Action) -> Observable<Mutation> { .just(.increase) }

    func reduce(state: State, mutation: Mutation) -> State {
        overlaps.enter()
        defer { overlaps.leave() }
        var state = state
        state.value += 1
        return state
    }
}

/// A reactor whose every state holds a new resource; a resource that dies reads the reactor's current state.
final class ResourceReactor: Reactor {
    final class Resource {
        let number: Int
        weak var owner: ResourceReactor?
        init(number: Int, owner: ResourceReactor) {
            self.number = number
            self.owner = owner
        }
        deinit { owner?.resourceDied(number) }
    }

    enum Action { case replace }
    struct State {
        var generation = 0
        var resource: Resource?
    }

    let initialState = State()
    let reactorStorage = ReactorStorage()
    private(set) var deaths: [String] = []
    /// Whether `transform(state:)` leaves the resource out of the states it passes on: the loop's own state is then
    /// the resource's only holder.
    let publishesWithoutResource: Bool

    init(publishesWithoutResource: Bool = false) {
        self.publishesWithoutResource = publishesWithoutResource
    }

    func reduce(state: State, mutation: Action) -> State {
        var state = state
        state.generation += 1
        state.resource = Resource(number: state.generation, owner: self)
        return state
    }

    func transform(state: Observable<State>) -> Observable<State> {
        guard publishesWithoutResource else { return state }
        return state.map { State(generation: $0.generation, resource: nil) }
    }

    func resourceDied(_ number: Int) {
        deaths.append("\(number)@\(currentState.generation)") // takes the reactor's lock
    }
}

/// Actions and mutations that carry an object whose `deinit` reads the reactor's state (taking its lock): the
/// object dies with the last of them, wherever the pipeline lets go of it, so it must let go after its lock.
final class PayloadReactor: Reactor {
    final class Payload {
        let name: String
        weak var owner: PayloadReactor?
        init(_ name: String, owner: PayloadReactor) {
            self.name = name
            self.owner = owner
        }
        deinit { owner?.payloadDied(name) }
    }

    enum Action { case one(Payload), three(Payload) }
    enum Mutation { case carry(Payload) }
    struct State { var reduced = 0 }

    let initialState = State()
    let reactorStorage = ReactorStorage()
    private(set) var deaths: [String] = []

    func mutate(action: Action) -> Observable<Mutation> {
        switch action {
        case .one(let payload):
            return .just(.carry(Payload("\(payload.name) mutation", owner: self)))
        case .three(let payload):
            return .concat((1...3).map { .just(.carry(Payload("\(payload.name) mutation \($0)", owner: self))) })
        }
    }

    func reduce(state: State, mutation: Mutation) -> State {
        var state = state
        state.reduced += 1
        return state
    }

    func payloadDied(_ name: String) {
        deaths.append("\(name)@\(currentState.reduced)") // takes the reactor's lock
    }
}
