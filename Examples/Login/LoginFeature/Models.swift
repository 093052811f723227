import Foundation

/// Where a user can sign in.
public enum AuthProvider: String, CaseIterable, Codable, Sendable, CustomStringConvertible {
    case kakao
    case apple
    case email

    public var description: String { rawValue }
}

/// A signed-in user.
public struct User: Equatable, Codable, Sendable, CustomStringConvertible {
    public var id: String
    public var name: String
    public var provider: AuthProvider

    public init(id: String, name: String, provider: AuthProvider) {
        self.id = id
        self.name = name
        self.provider = provider
    }

    public var description: String { "\(name) (\(provider))" }
}

/// The credential kept between launches.
public struct AuthToken: Equatable, Codable, Sendable {
    public var value: String
    public var user: User
    public var expiresAt: Date

    public init(value: String, user: User, expiresAt: Date) {
        self.value = value
        self.user = user
        self.expiresAt = expiresAt
    }
}

/// What a successful login returns.
public struct AuthSession: Equatable, Sendable {
    public var user: User
    public var token: AuthToken
    /// A new user goes to onboarding, an existing one to the main screen.
    public var isNewUser: Bool

    public init(user: User, token: AuthToken, isNewUser: Bool) {
        self.user = user
        self.token = token
        self.isNewUser = isNewUser
    }
}

/// Why a login failed.
public enum AuthError: Error, Equatable, Sendable {
    /// The provider refused, with a message for the user.
    case rejected(String)
    /// No answer in time.
    case timedOut
    /// The stored token is no longer accepted.
    case tokenRevoked

    /// The text the user sees.
    public var userMessage: String {
        switch self {
        case .rejected(let message): return message
        case .timedOut: return "The server did not answer in time. Please try again."
        case .tokenRevoked: return "Your session is no longer valid. Please log in again."
        }
    }
}

/// Where the app goes after signing in.
public enum Route: Equatable, Sendable, CustomStringConvertible {
    case main
    case onboarding

    public var description: String {
        switch self {
        case .main: return "main"
        case .onboarding: return "onboarding"
        }
    }
}
