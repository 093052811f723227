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

/// A token store in a JSON file. A missing file means logged out; a file that cannot be read as a token (corrupt,
/// too large, a directory, a link loop, no read permission) is reported as `.unreadable`, never a crash.
public final class FileTokenStore: TokenStore, @unchecked Sendable { // file access is serialized by `lock`
    /// Why a path cannot hold the token file.
    public struct UnusablePath: Error, Equatable, CustomStringConvertible {
        /// The path, as given.
        public let path: String
        /// What is wrong with it.
        public let reason: String
        /// "PATH: REASON".
        public var description: String { "\(path): \(reason)" }
    }

    /// A token file is a few hundred bytes; anything much larger is not one, and is not read whole.
    public static let maximumSize = 64 * 1024

    private let lock = NSLock()
    public let url: URL

    public init(url: URL) {
        self.url = url
    }

    /// Checks, without changing anything, that the file can be read and written: it is a regular file (or absent)
    /// whose permissions allow both, in an existing folder that can be written. Permission bits are checked as
    /// they are set, so the answer is the same for every user, root included.
    public func checkUsable() throws {
        let path = url.path
        func unusable(_ reason: String) -> UnusablePath { UnusablePath(path: path, reason: reason) }
        var info = stat()
        if lstat(path, &info) == 0 {
            switch info.st_mode & S_IFMT {
            case S_IFDIR:
                throw unusable("is a directory, not a file")
            case S_IFLNK:
                guard let resolved = realpath(path, nil) else {
                    let code = errno
                    if code == ELOOP { throw unusable("is a symbolic link loop") }
                    if code != ENOENT { throw unusable("is a link that cannot be followed (\(String(cString: strerror(code))))") }
                    return try checkFolder(of: path) // a link to a file not made yet: the folder it points into decides
                }
                free(resolved)
                var target = stat()
                guard stat(path, &target) == 0 else { throw unusable("cannot be examined (\(String(cString: strerror(errno))))") }
                info = target
                if info.st_mode & S_IFMT == S_IFDIR { throw unusable("is a link to a directory, not a file") }
            case S_IFREG:
                break
            default:
                throw unusable("is not a regular file")
            }
            if info.st_mode & 0o444 == 0 { throw unusable("has no read permission") }
            if info.st_mode & 0o222 == 0 { throw unusable("is read-only") }
        } else if errno != ENOENT {
            let code = errno
            if code == ELOOP { throw unusable("is a symbolic link loop") }
            throw unusable("cannot be examined (\(String(cString: strerror(code))))")
        }
        try checkFolder(of: path)
    }

    private func checkFolder(of path: String) throws {
        let folder = (path as NSString).deletingLastPathComponent.isEmpty ? "." : (path as NSString).deletingLastPathComponent
        var info = stat()
        guard stat(folder, &info) == 0 else {
            throw UnusablePath(path: url.path, reason: "its folder \(folder) does not exist")
        }
        guard info.st_mode & S_IFMT == S_IFDIR else {
            throw UnusablePath(path: url.path, reason: "\(folder) is not a folder")
        }
        if info.st_mode & 0o222 == 0 {
            throw UnusablePath(path: url.path, reason: "its folder \(folder) is read-only")
        }
    }

    /// Whether something is saved at the path now (a file with content, whatever it holds).
    public var holdsData: Bool {
        var info = stat()
        return stat(url.path, &info) == 0 && info.st_mode & S_IFMT == S_IFREG && info.st_size > 0
    }

    private static func encoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        return encoder
    }

    public func load() -> StoredToken {
        lock.withLock {
            let name = url.lastPathComponent
            var info = stat()
            guard lstat(url.path, &info) == 0 else {
                return errno == ENOENT ? .none : .unreadable("\(name) cannot be examined (\(String(cString: strerror(errno))))")
            }
            guard stat(url.path, &info) == 0 else {
                return errno == ELOOP ? .unreadable("\(name) is a symbolic link loop") : .none // a dangling link: nothing saved
            }
            guard info.st_mode & S_IFMT == S_IFREG else { return .unreadable("\(name) is not a regular file") }
            guard info.st_mode & 0o444 != 0 else { return .unreadable("\(name) has no read permission") }
            guard info.st_size <= Self.maximumSize else {
                return .unreadable("\(name) is \(info.st_size) bytes, too large to be a token file")
            }
            let data: Data
            do {
                data = try Data(contentsOf: url)
            } catch {
                // Deleted since it was examined: nothing saved.
                return FileManager.default.fileExists(atPath: url.path) ? .unreadable("\(name) cannot be read") : .none
            }
            let decoder = JSONDecoder()
            decoder.dateDecodingStrategy = .iso8601
            guard let token = try? decoder.decode(AuthToken.self, from: data) else {
                return .unreadable("\(name) is not a valid token file")
            }
            return .token(token)
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
