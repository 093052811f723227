import ReactorFlow

/// A search screen: typing is debounced, a new query cancels the previous request, scrolling to the end loads the
/// next page, and the screen shows loading, empty and error states.
///
/// The debounce is the `.latest` policy plus a delay: every keystroke's stream first waits `debounce`, and the
/// next keystroke cancels it before it has asked anything.
public final class SearchReactor: Reactor {
    public enum Action: Equatable, Sendable {
        case updateQuery(String)
        case loadNextPage
    }

    public enum Mutation: Equatable, Sendable {
        case setQuery(String)
        case setResults([String], nextPage: Int?)
        case appendResults([String], nextPage: Int?)
        case setLoading(Bool)
        case setLoadingNextPage(Bool)
        case showError(String)
    }

    public struct State: Equatable, Sendable {
        public var query = ""
        public var repositories: [String] = []
        public var nextPage: Int?
        public var isLoading = false
        public var isLoadingNextPage = false
        @Pulse public var errorMessage: String?

        public init() {}

        /// Nothing found for a finished search.
        public var isEmpty: Bool { !query.isEmpty && !isLoading && repositories.isEmpty }
    }

    public let initialState = State()
    public let reactorStorage = ReactorStorage()
    private let service: RepositoryService
    private let scheduler: SchedulerType
    private let debounce: RxTimeInterval

    public init(service: RepositoryService, scheduler: SchedulerType, debounce: RxTimeInterval = .milliseconds(300)) {
        self.service = service
        self.scheduler = scheduler
        self.debounce = debounce
    }

    public func effectPolicy(for action: Action) -> EffectPolicy {
        // One lane for both: a new query also cancels a page that is still loading for the old one.
        switch action {
        case .updateQuery: return .latest(id: "search")
        case .loadNextPage: return .first(id: "search")
        }
    }

    public func mutate(action: Action) -> Observable<Mutation> {
        switch action {
        case .updateQuery(let query):
            guard !query.isEmpty else { return .of(.setQuery(""), .setResults([], nextPage: nil), .setLoading(false)) }
            let search = service.search(query: query, page: 1).asObservable()
                .map { Mutation.setResults($0.repositories, nextPage: $0.nextPage) }
                .catch { .just(.showError(($0 as? SearchError)?.message ?? "\($0)")) }
            return Observable.concat(
                .just(.setQuery(query)),
                Observable<Int>.timer(debounce, scheduler: scheduler).flatMap { _ in
                    Observable.concat(.just(.setLoading(true)), search, .just(.setLoading(false)))
                }
            )
        case .loadNextPage:
            let state = currentState
            guard let page = state.nextPage, !state.isLoading else { return .empty() }
            return Observable.concat(
                .just(.setLoadingNextPage(true)),
                service.search(query: state.query, page: page).asObservable()
                    .map { Mutation.appendResults($0.repositories, nextPage: $0.nextPage) }
                    .catch { .just(.showError(($0 as? SearchError)?.message ?? "\($0)")) },
                .just(.setLoadingNextPage(false))
            )
        }
    }

    public func reduce(state: State, mutation: Mutation) -> State {
        var state = state
        switch mutation {
        case .setQuery(let query):
            state.query = query
        case .setResults(let repositories, let nextPage):
            state.repositories = repositories
            state.nextPage = nextPage
        case .appendResults(let repositories, let nextPage):
            state.repositories += repositories
            state.nextPage = nextPage
        case .setLoading(let isLoading):
            state.isLoading = isLoading
        case .setLoadingNextPage(let isLoading):
            state.isLoadingNextPage = isLoading
        case .showError(let message):
            state.errorMessage = message
            state.repositories = []
            state.nextPage = nil
        }
        return state
    }
}
