import Foundation
import ReactorFlow
import ReactorFlowTesting

// Realistic screens: what a list, a search field and an app-wide event cost, each next to a reference that does the
// same work without ReactorFlow (a hand-written serialized store, or the bare operator chain), measured in the same
// run, in alternation.

/// A list of 1,000 items with strings, twenty bindings of one item's title each, and a pulse.
final class ListScreenReactor: Reactor {
    struct Item { var title: String; var subtitle: String }
    enum Action { case rename(Int, String), notify(String) }
    struct State {
        var items = (0..<1_000).map { Item(title: "Item number \($0) of the list", subtitle: "Subtitle of item \($0)") }
        @Pulse var message: String?
    }

    let initialState = State()
    let reactorStorage = ReactorStorage()

    func reduce(state: State, mutation: Action) -> State {
        var state = state
        switch mutation {
        case .rename(let index, let title): state.items[index].title = title
        case .notify(let message): state.message = message
        }
        return state
    }
}

/// A search field: each keystroke sets the query; the results come from a debounced `flatMapLatest` of a fake
/// request, merged in `transform(mutation:)`.
final class SearchScreenReactor: Reactor {
    enum Action { case type(String) }
    enum Mutation { case setQuery(String), setResults([String]) }
    struct State { var query = ""; var results: [String] = [] }

    let initialState = State()
    let reactorStorage = ReactorStorage()
    let scheduler: TestScheduler

    init(scheduler: TestScheduler) { self.scheduler = scheduler }

    func mutate(action: Action) -> Observable<Mutation> {
        switch action {
        case .type(let query): .just(.setQuery(query))
        }
    }

    func transform(mutation: Observable<Mutation>) -> Observable<Mutation> {
        let results = action.map { action -> String in
            switch action { case .type(let query): query }
        }
        .debounce(.milliseconds(300), scheduler: scheduler)
        .flatMapLatest { [scheduler] query in Screens.fakeRequest(query, scheduler: scheduler).asObservable() }
        .map(Mutation.setResults)
        return Observable.merge(mutation, results)
    }

    func reduce(state: State, mutation: Mutation) -> State {
        var state = state
        switch mutation {
        case .setQuery(let query): state.query = query
        case .setResults(let results): state.results = results
        }
        return state
    }
}

/// A small feature that hears the app-wide login event through `transform(mutation:)`.
final class BadgeReactor: Reactor {
    enum Action { case refresh }
    enum Mutation { case setUser(String?) }
    struct State { var user: String? }

    let initialState = State()
    let reactorStorage = ReactorStorage()
    let bus: PublishRelay<String?>

    init(bus: PublishRelay<String?>) { self.bus = bus }

    func mutate(action: Action) -> Observable<Mutation> { .empty() }

    func transform(mutation: Observable<Mutation>) -> Observable<Mutation> {
        Observable.merge(mutation, bus.map(Mutation.setUser))
    }

    func reduce(state: State, mutation: Mutation) -> State {
        switch mutation {
        case .setUser(let user): State(user: user)
        }
    }
}

enum Screens {
    static func fakeRequest(_ query: String, scheduler: TestScheduler) -> Single<[String]> {
        Single.just(["\(query) one", "\(query) two"]).delay(.milliseconds(100), scheduler: scheduler)
    }

    /// One operation: an action that renames one item; twenty `map` + `distinctUntilChanged` bindings and a pulse
    /// subscriber look at every state.
    static func listScreen(_ n: Int) -> UInt64 {
        let reactor = ListScreenReactor()
        let bag = DisposeBag()
        var changes = 0
        for index in 0..<20 {
            reactor.state.map { $0.items[index * 50].title }.distinctUntilChanged()
                .subscribe(onNext: { _ in changes += 1 }).disposed(by: bag)
        }
        reactor.pulse(\.$message).subscribe(onNext: { blackHole($0) }).disposed(by: bag)
        let action = reactor.action
        let titles = ["First title of an item", "Second title of an item"]
        let time = elapsed {
            for operation in 0..<n { action.onNext(.rename((operation % 20) * 50, titles[(operation / 20) & 1])) }
        }
        precondition(changes >= n, "list lost states")
        return time
    }

    /// The list screen's reference: the same state, reduce and twenty bindings in a hand-written serialized store.
    static func listScreenReference(_ n: Int) -> UInt64 {
        var changes = 0
        var lastTitles = Array(repeating: "", count: 20)
        var lastPulse: UInt = .max
        let store = SerializedStore(initialState: ListScreenReactor.State(), reduce: Scenarios.opaqueReducer(of: ListScreenReactor()),
                                    subscriber: Scenarios.opaqueSubscriber { (state: ListScreenReactor.State) in
                                        for index in 0..<20 where state.items[index * 50].title != lastTitles[index] {
                                            lastTitles[index] = state.items[index * 50].title
                                            changes += 1
                                        }
                                        if state.$message.valueUpdatedCount != lastPulse {
                                            lastPulse = state.$message.valueUpdatedCount
                                            blackHole(state.message)
                                        }
                                    }, owner: nil)
        let titles = ["First title of an item", "Second title of an item"]
        let time = elapsed {
            for operation in 0..<n { store.send(.rename((operation % 20) * 50, titles[(operation / 20) & 1])) }
        }
        precondition(changes >= n - 20, "reference lost states")
        return time
    }

    /// One operation: a keystroke; every fifth, the virtual clock moves past the debounce and the request.
    static func searchScreen(_ n: Int) -> UInt64 {
        let scheduler = TestScheduler(initialClock: 0, resolution: .milliseconds(1))
        let reactor = SearchScreenReactor(scheduler: scheduler)
        let bag = DisposeBag()
        var results = 0
        reactor.state.map(\.results).distinctUntilChanged().subscribe(onNext: { _ in results += 1 }).disposed(by: bag)
        let action = reactor.action
        let time = elapsed {
            for operation in 0..<n {
                action.onNext(.type("query \(operation / 5) \(operation % 5)"))
                if operation % 5 == 4 { scheduler.advance(by: .milliseconds(500)) }
            }
        }
        precondition(results >= n / 5, "search lost results")
        return time
    }

    /// The search screen's reference: the same debounced `flatMapLatest` over a subject, reduced by hand.
    static func searchScreenReference(_ n: Int) -> UInt64 {
        let scheduler = TestScheduler(initialClock: 0, resolution: .milliseconds(1))
        let keystrokes = PublishSubject<String>()
        var state = SearchScreenReactor.State()
        var results = 0
        let bag = DisposeBag()
        keystrokes.subscribe(onNext: { state.query = $0 }).disposed(by: bag)
        keystrokes.debounce(.milliseconds(300), scheduler: scheduler)
            .flatMapLatest { fakeRequest($0, scheduler: scheduler).asObservable() }
            .subscribe(onNext: { state.results = $0; results += 1 }).disposed(by: bag)
        let time = elapsed {
            for operation in 0..<n {
                keystrokes.onNext("query \(operation / 5) \(operation % 5)")
                if operation % 5 == 4 { scheduler.advance(by: .milliseconds(500)) }
            }
        }
        precondition(results >= n / 5, "reference lost results")
        blackHole(state)
        return time
    }

    /// One operation: one app-wide event reaching 1,000 live reactors, each reducing it and delivering to its one
    /// subscriber. Reported per event.
    static func appWideEvent(_ n: Int) -> UInt64 {
        let bus = PublishRelay<String?>()
        let reactors = (0..<1_000).map { _ in BadgeReactor(bus: bus) }
        let bag = DisposeBag()
        var seen = 0
        for reactor in reactors { reactor.state.subscribe(onNext: { _ in seen += 1 }).disposed(by: bag) }
        let users = ["Ann", nil]
        let time = elapsed { for operation in 0..<n { bus.accept(users[operation & 1]) } }
        precondition(seen == 1_000 * (n + 1), "app-wide event lost states")
        blackHole(reactors)
        return time
    }

    /// The app-wide event's reference: 1,000 hand-written stores that the event reaches through a closure list.
    static func appWideEventReference(_ n: Int) -> UInt64 {
        var seen = 0
        let stores = (0..<1_000).map { _ in
            SerializedStore(initialState: BadgeReactor.State(), reduce: Scenarios.opaqueReducer(of: BadgeReactor(bus: PublishRelay())),
                            subscriber: Scenarios.opaqueSubscriber { (_: BadgeReactor.State) in seen += 1 }, owner: nil)
        }
        let listeners: [(String?) -> Void] = stores.map { store in { store.send(.setUser($0)) } }
        let users = ["Ann", nil]
        let time = elapsed { for operation in 0..<n { for listener in listeners { listener(users[operation & 1]) } } }
        precondition(seen == 1_000 * n, "reference lost states")
        return time
    }
}
