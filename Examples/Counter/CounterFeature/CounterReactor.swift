import ReactorFlow

/// The classic counter: each tap shows a loading flag, and the value changes after a delay.
public final class CounterReactor: Reactor {
    public enum Action: Equatable, Sendable {
        case increase
        case decrease
    }

    public enum Mutation: Equatable, Sendable {
        case increaseValue
        case decreaseValue
        case setLoading(Bool)
    }

    public struct State: Equatable, Sendable {
        public var value = 0
        public var isLoading = false

        public init(value: Int = 0, isLoading: Bool = false) {
            self.value = value
            self.isLoading = isLoading
        }
    }

    public let initialState = State()
    public let reactorStorage = ReactorStorage()
    private let delayScheduler: SchedulerType
    private let delay: RxTimeInterval

    /// - Parameters:
    ///   - delayScheduler: where the delay runs (a `TestScheduler` in tests).
    ///   - delay: how long an increase or decrease takes.
    public init(delayScheduler: SchedulerType, delay: RxTimeInterval = .milliseconds(500)) {
        self.delayScheduler = delayScheduler
        self.delay = delay
    }

    public func mutate(action: Action) -> Observable<Mutation> {
        let change: Mutation = action == .increase ? .increaseValue : .decreaseValue
        return Observable.concat(
            .just(.setLoading(true)),
            Observable.just(change).delay(delay, scheduler: delayScheduler),
            .just(.setLoading(false))
        )
    }

    public func reduce(state: State, mutation: Mutation) -> State {
        var state = state
        switch mutation {
        case .increaseValue: state.value += 1
        case .decreaseValue: state.value -= 1
        case .setLoading(let isLoading): state.isLoading = isLoading
        }
        return state
    }
}
