import Testing
@testable import ReactorFlow

/// A reactor whose `transform(mutation:)` and `transform(state:)` return their input unchanged, as the defaults do,
/// but also keep it, and, when asked, subscribe to it while they run.
private final class KeepingReactor: Reactor {
    enum Action { case add(Int) }
    enum Mutation: Equatable { case add(Int) }
    struct State: Equatable { var total = 0 }

    let initialState = State()
    let reactorStorage = ReactorStorage()
    let subscribesWhileTransforming: Bool
    let bag = DisposeBag()
    var keptMutations: Observable<Mutation>?
    var keptStates: Observable<State>?
    let mutationsSeenWhileTransforming = EventLog<Mutation>()
    let statesSeenWhileTransforming = EventLog<State>()

    init(subscribesWhileTransforming: Bool) {
        self.subscribesWhileTransforming = subscribesWhileTransforming
    }

    func mutate(action: Action) -> Observable<Mutation> {
        switch action {
        case .add(let amount): .just(.add(amount))
        }
    }

    func reduce(state: State, mutation: Mutation) -> State {
        switch mutation {
        case .add(let amount): State(total: state.total + amount)
        }
    }

    func transform(mutation: Observable<Mutation>) -> Observable<Mutation> {
        keptMutations = mutation
        if subscribesWhileTransforming { mutation.subscribe(mutationsSeenWhileTransforming.observer()).disposed(by: bag) }
        return mutation
    }

    func transform(state: Observable<State>) -> Observable<State> {
        keptStates = state
        if subscribesWhileTransforming { state.subscribe(statesSeenWhileTransforming.observer()).disposed(by: bag) }
        return state
    }
}

/// A reactor whose `transform(action:)` returns an action subject the reactor made itself, rather than its input: a
/// stream of the input's class that is no reactor's input.
private final class SubjectFedReactor: Reactor {
    enum Action { case add(Int) }
    typealias Mutation = Action
    struct State: Equatable { var total = 0 }

    let initialState = State()
    let reactorStorage = ReactorStorage()
    let fed = ActionSubject<Action>()

    func reduce(state: State, mutation: Mutation) -> State {
        switch mutation {
        case .add(let amount): State(total: state.total + amount)
        }
    }

    func transform(action: Observable<Action>) -> Observable<Action> { fed.asObservable() }
}

/// A reactor whose hooks keep their inputs and, if it has a lender, return the lender's instead: streams of the
/// inputs' own classes that are not the inputs themselves, which `wire` follows through code compiled once.
private final class BorrowingReactor: Reactor {
    enum Action { case add(Int) }
    typealias Mutation = Action
    struct State: Equatable { var total = 0 }

    let initialState = State()
    let reactorStorage = ReactorStorage()
    let lender: BorrowingReactor?
    var keptActions: Observable<Action>?
    var keptMutations: Observable<Mutation>?
    var keptStates: Observable<State>?

    init(lender: BorrowingReactor?) {
        self.lender = lender
    }

    func reduce(state: State, mutation: Mutation) -> State {
        switch mutation {
        case .add(let amount): State(total: state.total + amount)
        }
    }

    func transform(action: Observable<Action>) -> Observable<Action> {
        keptActions = action
        return lender?.keptActions ?? action
    }

    func transform(mutation: Observable<Mutation>) -> Observable<Mutation> {
        keptMutations = mutation
        return lender?.keptMutations ?? mutation
    }

    func transform(state: Observable<State>) -> Observable<State> {
        keptStates = state
        return lender?.keptStates ?? state
    }
}

@Suite("Transform inputs returned unchanged")
struct TransformInputTests {
    @Test("B8 a hook that subscribes to its input while it runs sees every mutation and reduced state; the reactor still works")
    func subscribedWhileTransforming() {
        let reactor = KeepingReactor(subscribesWhileTransforming: true)
        let states = EventLog<Int>()
        reactor.state.map(\.total).subscribe(states.observer()).disposed(by: reactor.bag)
        reactor.action.onNext(.add(2))
        reactor.action.onNext(.add(3))
        #expect(reactor.mutationsSeenWhileTransforming.events == [.next(.add(2)), .next(.add(3))])
        #expect(reactor.statesSeenWhileTransforming.events == [.next(State(total: 0)), .next(State(total: 2)), .next(State(total: 5))])
        #expect(states.events == [.next(0), .next(2), .next(5)])
        #expect(reactor.currentState.total == 5)
    }

    @Test("B8 an input kept and subscribed after wiring: mutations of later actions, and the current state then each new one")
    func subscribedAfterWiring() throws {
        let reactor = KeepingReactor(subscribesWhileTransforming: false)
        reactor.action.onNext(.add(1))
        let mutations = EventLog<Mutation>()
        let states = EventLog<State>()
        let keptMutations = try #require(reactor.keptMutations)
        let keptStates = try #require(reactor.keptStates)
        keptMutations.subscribe(mutations.observer()).disposed(by: reactor.bag)
        keptStates.subscribe(states.observer()).disposed(by: reactor.bag)
        reactor.action.onNext(.add(10))
        #expect(mutations.events == [.next(.add(10))])
        #expect(states.events == [.next(State(total: 1)), .next(State(total: 11))])
        #expect(reactor.currentState.total == 11)
    }

    @Test("B8 hooks that return another reactor's inputs: each returned stream is followed like a stream of their own")
    func anotherReactorsInputs() {
        let lender = BorrowingReactor(lender: nil)
        let lenderStates = EventLog<Int>()
        let bag = DisposeBag()
        lender.state.map(\.total).subscribe(lenderStates.observer()).disposed(by: bag)
        let borrower = BorrowingReactor(lender: lender)
        let borrowerStates = EventLog<Int>()
        borrower.state.map(\.total).subscribe(borrowerStates.observer()).disposed(by: bag)
        lender.action.onNext(.add(2))
        borrower.action.onNext(.add(100)) // its actions go nowhere: its mutations come from the lender's input
        lender.action.onNext(.add(3))
        #expect(lenderStates.events == [.next(0), .next(2), .next(5)])
        // The borrower's states are the lender's reduced states, which its transform(state:) returned.
        #expect(borrowerStates.events == [.next(0), .next(2), .next(5)])
        #expect(borrower.currentState.total == 5)
    }

    @Test("B8 a hook that returns an action subject of its own instead of its input: the reactor follows that subject")
    func actionSubjectOfItsOwn() {
        let reactor = SubjectFedReactor()
        let totals = EventLog<Int>()
        let bag = DisposeBag()
        reactor.state.map(\.total).subscribe(totals.observer()).disposed(by: bag)
        reactor.fed.onNext(.add(5))
        reactor.action.onNext(.add(100)) // the hook dropped its input: nothing reads it
        reactor.fed.onNext(.add(2))
        #expect(totals.events == [.next(0), .next(5), .next(7)])
        #expect(reactor.currentState.total == 7)
    }

    private typealias State = KeepingReactor.State
    private typealias Mutation = KeepingReactor.Mutation
}
