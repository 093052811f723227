@testable import ReactorFlow
import Testing

@Suite("KeyPathReader")
struct KeyPathReaderTests {
    final class Session {
        var token = "initial"
    }

    @propertyWrapper
    struct Trimmed {
        var wrappedValue: String
        var projectedValue: Int { wrappedValue.count }
    }

    struct Profile {
        var name: String
        var tags: [String]
        var position: (x: Int, label: String)
    }

    struct Screen {
        var isLoading = false
        var profile = Profile(name: "ada", tags: ["math", "engines"], position: (x: 7, label: "seven"))
        var optionalProfile: Profile? = Profile(name: "grace", tags: [], position: (x: 1, label: "one"))
        var session = Session()
        @Trimmed var title = "Home"
        var tagCount: Int { profile.tags.count }
    }

    /// Stored properties held inline, however deep, are read at their offset; everything else through the key path.
    /// Both must give what `root[keyPath:]` gives.
    @Test func readsEveryKindOfKeyPathAsTheKeyPathDoes() {
        var screen = Screen()
        screen.isLoading = true
        screen.session.token = "secret"

        func check<Value: Equatable>(_ keyPath: KeyPath<Screen, Value>, inline: Bool, _ expected: Value) {
            let reader = KeyPathReader(keyPath)
            #expect((reader.offset >= 0) == inline)
            #expect(reader.read(screen) == expected)
            #expect(reader.read(screen) == screen[keyPath: keyPath])
        }
        check(\.isLoading, inline: true, true)
        check(\.profile.name, inline: true, "ada")
        check(\.profile.tags, inline: true, ["math", "engines"])
        check(\.profile.position.label, inline: true, "seven")
        check(\.profile.position.x, inline: true, 7)
        check(\.tagCount, inline: false, 2)
        check(\.optionalProfile?.name, inline: false, "grace")
        check(\.session.token, inline: false, "secret")
        check(\.title, inline: false, "Home")
        check(\.$title, inline: false, 4)
    }

    /// The value read is the reader's own copy: it outlives the root it came from (AddressSanitizer checks this).
    @Test func aValueReadOutlivesItsRoot() {
        let reader = KeyPathReader(\Screen.profile.tags)
        var tags: [String] = []
        do {
            var screen = Screen()
            screen.profile.tags = (0..<3).map { "tag \($0) of a state that dies first" }
            tags = reader.read(screen)
        }
        #expect(tags == ["tag 0 of a state that dies first", "tag 1 of a state that dies first",
                         "tag 2 of a state that dies first"])
    }
}
