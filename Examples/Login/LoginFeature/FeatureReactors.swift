import ReactorFlow

/// The little badge in the corner: "Guest" or the user's name. It learns of login and logout only through
/// `AuthEvents`, merged in `transform(mutation:)`.
public final class ProfileBadgeReactor: Reactor {
    public enum Action: Sendable {
        case tapBadge
    }

    public enum Mutation: Equatable, Sendable {
        case setUser(User?)
        case countTap
    }

    public struct State: Equatable, Sendable {
        public var title = "Guest"
        public var isSignedIn = false
        public var taps = 0

        public init() {}
    }

    public let initialState = State()
    public let reactorStorage = ReactorStorage()
    private let authEvents: AuthEvents

    public init(authEvents: AuthEvents) {
        self.authEvents = authEvents
    }

    public func mutate(action: Action) -> Observable<Mutation> {
        .just(.countTap)
    }

    public func transform(mutation: Observable<Mutation>) -> Observable<Mutation> {
        Observable.merge(mutation, authEvents.mutations(loggedIn: { .setUser($0) }, loggedOut: .setUser(nil)))
    }

    public func reduce(state: State, mutation: Mutation) -> State {
        var state = state
        switch mutation {
        case .setUser(let user):
            state.title = user.map { "Hi, \($0.name)" } ?? "Guest"
            state.isSignedIn = user != nil
        case .countTap:
            state.taps += 1
        }
        return state
    }
}

/// The settings screen: which account is signed in and whether "Log out" is enabled. It too hears of login and
/// logout only through `AuthEvents`.
public final class SettingsReactor: Reactor {
    public enum Action: Sendable {
        case toggleNotifications
    }

    public enum Mutation: Equatable, Sendable {
        case signedIn(User)
        case signedOut
        case toggleNotifications
    }

    public struct State: Equatable, Sendable {
        public var account = "Not signed in"
        public var isLogoutEnabled = false
        public var notificationsOn = true

        public init() {}
    }

    public let initialState = State()
    public let reactorStorage = ReactorStorage()
    private let authEvents: AuthEvents

    public init(authEvents: AuthEvents) {
        self.authEvents = authEvents
    }

    public func mutate(action: Action) -> Observable<Mutation> {
        .just(.toggleNotifications)
    }

    public func transform(mutation: Observable<Mutation>) -> Observable<Mutation> {
        Observable.merge(mutation, authEvents.mutations(loggedIn: { .signedIn($0) }, loggedOut: .signedOut))
    }

    public func reduce(state: State, mutation: Mutation) -> State {
        var state = state
        switch mutation {
        case .signedIn(let user):
            state.account = "\(user.name) via \(user.provider)"
            state.isLogoutEnabled = true
        case .signedOut:
            state.account = "Not signed in"
            state.isLogoutEnabled = false
        case .toggleNotifications:
            state.notificationsOn.toggle()
        }
        return state
    }
}
