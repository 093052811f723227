import ReactorFlow

/// Something every feature may need to hear about.
public enum AuthEvent: Equatable, Sendable {
    case loggedIn(User)
    case loggedOut
}

/// The app-wide stream of login and logout, shared by features that must not depend on the login screen.
/// Features merge it in `transform(mutation:)`.
public final class AuthEvents: Sendable {
    private let relay = PublishRelay<AuthEvent>()

    public init() {}

    /// Every login and logout from now on.
    public var events: Observable<AuthEvent> { relay.asObservable() }

    /// Announces a login or logout.
    public func send(_ event: AuthEvent) { relay.accept(event) }

    /// The events as a feature's own mutations, to merge in its `transform(mutation:)`.
    public func mutations<Mutation>(loggedIn: @escaping (User) -> Mutation, loggedOut: Mutation) -> Observable<Mutation> {
        events.map { event in
            switch event {
            case .loggedIn(let user): return loggedIn(user)
            case .loggedOut: return loggedOut
            }
        }
    }
}
