import Foundation
import LoginFeature
import Testing

@Suite("Token file: every bad path gets a clear answer, never a crash")
final class TokenStoreTests {
    /// A folder of its own per test, removed with everything in it when the test ends.
    let folder: URL
    let token = AuthToken(value: "token-1", user: User(id: "u1", name: "Ann", provider: .kakao),
                          expiresAt: Date(timeIntervalSince1970: 2_000_000_000))

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("token-store-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(at: folder)
    }

    func store(_ name: String) -> FileTokenStore { FileTokenStore(url: folder.appendingPathComponent(name)) }

    func reason(_ store: FileTokenStore) -> String? {
        do {
            try store.checkUsable()
            return nil
        } catch let error as FileTokenStore.UnusablePath {
            return error.reason
        } catch {
            return "\(error)"
        }
    }

    @Test("a token saved is loaded back; a missing file is no session; clear removes it")
    func roundTrip() throws {
        let store = store("token.json")
        #expect(reason(store) == nil)
        #expect(store.load() == .none)
        #expect(!store.holdsData)
        try store.save(token)
        #expect(store.holdsData)
        #expect(store.load() == .token(token))
        store.clear()
        #expect(store.load() == .none)
    }

    @Test("a folder that does not exist, or is read-only, is refused at start")
    func unwritableFolder() throws {
        let missing = FileTokenStore(url: folder.appendingPathComponent("nowhere/token.json"))
        #expect(reason(missing) == "its folder \(folder.path)/nowhere does not exist")
        #expect(missing.load() == .none)
        #expect(throws: (any Error).self) { try missing.save(token) }

        let locked = folder.appendingPathComponent("locked")
        try FileManager.default.createDirectory(at: locked, withIntermediateDirectories: false)
        try FileManager.default.setAttributes([.posixPermissions: 0o555], ofItemAtPath: locked.path)
        defer { try? FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: locked.path) }
        #expect(reason(FileTokenStore(url: locked.appendingPathComponent("token.json"))) == "its folder \(locked.path) is read-only")
    }

    @Test("a directory is refused at start and reported as unreadable if loaded")
    func directory() throws {
        let store = FileTokenStore(url: folder)
        #expect(reason(store) == "is a directory, not a file")
        #expect(store.load() == .unreadable("\(folder.lastPathComponent) is not a regular file"))
    }

    @Test("a symbolic link loop is refused at start and reported as unreadable if loaded")
    func linkLoop() throws {
        let loop = folder.appendingPathComponent("loop.json")
        try FileManager.default.createSymbolicLink(atPath: loop.path, withDestinationPath: loop.path)
        let store = FileTokenStore(url: loop)
        #expect(reason(store) == "is a symbolic link loop")
        #expect(store.load() == .unreadable("loop.json is a symbolic link loop"))
    }

    @Test("3 MB of random bytes are reported as too large, without being read whole")
    func largeRandomFile() throws {
        let store = store("random.json")
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<3_000_000).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
        try Data(bytes).write(to: store.url)
        #expect(reason(store) == nil, "it can be read and written: only its content is wrong")
        #expect(store.holdsData)
        #expect(store.load() == .unreadable("random.json is 3000000 bytes, too large to be a token file"))
        try Data("not json".utf8).write(to: store.url)
        #expect(store.load() == .unreadable("random.json is not a valid token file"))
    }

    @Test("a file without read permission, or read-only, is refused at start, whoever runs it")
    func permissions() throws {
        let store = store("token.json")
        try store.save(token)
        try FileManager.default.setAttributes([.posixPermissions: 0o000], ofItemAtPath: store.url.path)
        #expect(reason(store) == "has no read permission")
        #expect(store.load() == .unreadable("token.json has no read permission"))
        try FileManager.default.setAttributes([.posixPermissions: 0o444], ofItemAtPath: store.url.path)
        #expect(reason(store) == "is read-only")
        #expect(store.load() == .token(token), "a read-only file can still be read")
    }

    @Test("a file deleted while in use is no session; saving makes it again")
    func deletedWhileRunning() throws {
        let store = store("token.json")
        try store.save(token)
        try FileManager.default.removeItem(at: store.url)
        #expect(store.load() == .none)
        try store.save(token)
        #expect(store.load() == .token(token))
    }
}
