import Foundation

/// What a token store found.
public enum StoredToken: Equatable, Sendable {
    /// Nothing saved: logged out.
    case none
    /// A saved token.
    case token(AuthToken)
    /// Something was saved but cannot be read; treated as logged out, and reported.
    case unreadable(String)
}

/// Keeps the session token between launches.
public protocol TokenStore: AnyObject {
    /// Reads the saved token; never throws: problems come back as `.unreadable`.
    func load() -> StoredToken
    /// Saves `token`, replacing any other.
    func save(_ token: AuthToken) throws
    /// Forgets the saved token.
    func clear()
}

/// A token store in memory, for tests and the default demo.
public final class InMemoryTokenStore: TokenStore, @unchecked Sendable { // `stored` is guarded by `lock`
    private let lock = NSLock()
    private var stored: StoredToken

    public init(_ initial: StoredToken = .none) {
        stored = initial
    }

    public func load() -> StoredToken { lock.withLock { stored } }
    public func save(_ token: AuthToken) throws { lock.withLock { stored = .token(token) } }
    public func clear() { lock.withLock { stored = .none } }
}

/// A token store in a JSON file. A missing file means logged out; a corrupt one is reported as `.unreadable`.
public final class FileTokenStore: TokenStore, @unchecked Sendable { // file access is serialized by `lock`
    private let lock = NSLock()
    public let url: URL

    public init(url: URL) {
        self.url = url
    }

    private static func encoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        return encoder
    }

    public func load() -> StoredToken {
        lock.withLock {
            guard FileManager.default.fileExists(atPath: url.path) else { return .none }
            do {
                let data = try Data(contentsOf: url)
                let decoder = JSONDecoder()
                decoder.dateDecodingStrategy = .iso8601
                return .token(try decoder.decode(AuthToken.self, from: data))
            } catch {
                return .unreadable("\(url.lastPathComponent) is not a valid token file")
            }
        }
    }

    public func save(_ token: AuthToken) throws {
        try lock.withLock {
            try Self.encoder().encode(token).write(to: url, options: .atomic)
        }
    }

    public func clear() {
        lock.withLock { try? FileManager.default.removeItem(at: url) }
    }
}
