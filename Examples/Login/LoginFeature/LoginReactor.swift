import Foundation
import ReactorFlow

/// The login screen: sign in with a provider, restore a saved session at launch, sign out.
///
/// - A tap while a login is in flight starts nothing: login actions share the `.first` effect policy, so
///   `mutate` is not even called for them.
/// - Errors never end a stream: they become an `alert` pulse, so the same message twice is shown twice.
/// - Navigation is a `route` pulse; a view that re-binds with `.unconsumed` does not navigate again.
/// - Logout cancels an in-flight login (`take(until:)` on the logout action) and tells every feature through
///   `AuthEvents`.
public final class LoginReactor: Reactor {
    public enum Action: Equatable, Sendable {
        case tapLogin(AuthProvider)
        case autoLogin
        case logout
    }

    public enum Mutation: Equatable, Sendable {
        case setLoading(Bool)
        case setUser(User?)
        case showAlert(String)
        case navigate(Route)
    }

    public struct State: Equatable, Sendable {
        public var isLoading = false
        public var user: User?
        @Pulse public var alert: String?
        @Pulse public var route: Route?

        public init() {}
    }

    public let initialState = State()
    public let reactorStorage = ReactorStorage()

    private let service: AuthService
    private let tokenStore: TokenStore
    private let authEvents: AuthEvents
    private let clock: SchedulerType
    private let requestTimeout: RxTimeInterval
    private let deliveryScheduler: ImmediateSchedulerType
    private let log: ((String) -> Void)?

    /// - Parameters:
    ///   - clock: drives the request timeout and token expiry (a `TestScheduler` in tests).
    ///   - deliveryScheduler: where state is delivered (`MainScheduler.instance` in an app).
    ///   - log: receives a line per action and mutation, for the example's timeline.
    public init(service: AuthService, tokenStore: TokenStore, authEvents: AuthEvents, clock: SchedulerType,
                requestTimeout: RxTimeInterval = .seconds(10),
                deliveryScheduler: ImmediateSchedulerType = CurrentThreadScheduler.instance,
                log: ((String) -> Void)? = nil) {
        self.service = service
        self.tokenStore = tokenStore
        self.authEvents = authEvents
        self.clock = clock
        self.requestTimeout = requestTimeout
        self.deliveryScheduler = deliveryScheduler
        self.log = log
    }

    public var scheduler: ImmediateSchedulerType { deliveryScheduler }

    public func transform(action: Observable<Action>) -> Observable<Action> {
        guard let log else { return action }
        return action.do(onNext: { log("action    \($0)") })
    }

    public func transform(mutation: Observable<Mutation>) -> Observable<Mutation> {
        guard let log else { return mutation }
        return mutation.do(onNext: { log("mutation  \($0)") })
    }

    public func effectPolicy(for action: Action) -> EffectPolicy {
        switch action {
        case .tapLogin, .autoLogin: return .first(id: "login")  // the duplicate-tap guard, as a declaration
        case .logout: return .merge
        }
    }

    public func mutate(action: Action) -> Observable<Mutation> {
        switch action {
        case .tapLogin(let provider):
            guard currentState.user == nil else { return .empty() }
            return inFlight(service.login(with: provider).asObservable().map { ($0.user, $0.token, $0.isNewUser, true) })

        case .autoLogin:
            guard currentState.user == nil else { return .empty() }
            switch tokenStore.load() {
            case .none:
                return .empty()
            case .unreadable(let reason):
                tokenStore.clear()
                return .just(.showAlert("Your saved session could not be read (\(reason)). Please log in again."))
            case .token(let token):
                guard token.expiresAt > clock.now else {
                    tokenStore.clear()
                    return .just(.showAlert("Your session has expired. Please log in again."))
                }
                return inFlight(service.restore(token).asObservable().map { ($0, token, false, false) })
            }

        case .logout:
            tokenStore.clear()
            authEvents.send(.loggedOut)
            return .of(.setLoading(false), .setUser(nil))
        }
    }

    public func reduce(state: State, mutation: Mutation) -> State {
        var state = state
        switch mutation {
        case .setLoading(let isLoading):
            state.isLoading = isLoading
        case .setUser(let user):
            state.user = user
        case .showAlert(let message):
            state.alert = message
        case .navigate(let route):
            state.route = route
        }
        return state
    }

    /// Loading on, the request, loading off; cancelled by a logout; every error becomes an alert.
    private func inFlight(_ request: Observable<(User, AuthToken, Bool, Bool)>) -> Observable<Mutation> {
        let tokenStore = self.tokenStore
        let authEvents = self.authEvents
        let signedIn = request
            .timeout(requestTimeout, scheduler: clock)
            .flatMap { user, token, isNewUser, saveToken -> Observable<Mutation> in
                var mutations: [Mutation] = [.setUser(user)]
                if saveToken {
                    do {
                        try tokenStore.save(token)
                    } catch {
                        mutations.append(.showAlert("Signed in, but the session could not be saved: \(error.localizedDescription)"))
                    }
                }
                authEvents.send(.loggedIn(user))
                mutations.append(.navigate(isNewUser ? .onboarding : .main))
                return .from(mutations)
            }
            .catch { error in
                let message = (error as? AuthError)?.userMessage
                    ?? (error as? RxError == .timeout ? AuthError.timedOut.userMessage : "Something went wrong: \(error)")
                return .just(.showAlert(message))
            }
        return Observable.concat(.just(.setLoading(true)), signedIn, .just(.setLoading(false)))
            .take(until: action.filter { $0 == .logout })
    }
}
