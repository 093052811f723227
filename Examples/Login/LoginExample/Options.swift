import Foundation

/// The command line of `LoginExample`.
struct Options {
    var interactive = false
    var latencyMilliseconds = 150
    var failureRate = 0.0
    var seed: UInt64 = 1
    var tokenFile: String?

    static let usage = """
    USAGE: swift run LoginExample [options]

    Runs a scripted login story and prints its timeline (the default), or an interactive login screen.

    OPTIONS:
      --interactive        A terminal screen: k/a/e log in with Kakao/Apple/email, o logs out,
                           f toggles failures, q quits. Keys may also be piped in: echo "kfkq" | ...
      --latency MS         Fake server latency in milliseconds (default 150, 0...5000).
      --fail-rate P        Chance from 0 to 1 that an unscripted login fails (default 0).
      --seed N             Seed for --fail-rate, to replay the same run (default 1).
      --token-file PATH    Keep the session token in this JSON file instead of in memory. The story starts
                           logged out: it clears the file first, then saves the session it makes there
                           (--interactive starts from a session saved in it instead). A path that cannot
                           be read and written is refused at start, with exit code 2.
      --help               Show this help.
    """

    struct ParseError: Error, CustomStringConvertible {
        let description: String
    }

    /// Parses `arguments` (without the program name); `nil` means `--help`.
    static func parse(_ arguments: [String]) throws -> Options? {
        var options = Options()
        var remaining = arguments[...]
        func value(for flag: String) throws -> String {
            guard let value = remaining.popFirst(), !value.hasPrefix("--") else {
                throw ParseError(description: "\(flag) needs a value")
            }
            return value
        }
        while let argument = remaining.popFirst() {
            switch argument {
            case "--help", "-h":
                return nil
            case "--interactive":
                options.interactive = true
            case "--latency":
                let text = try value(for: argument)
                guard let latency = Int(text), (0...5000).contains(latency) else {
                    throw ParseError(description: "--latency takes milliseconds from 0 to 5000, not '\(text)'")
                }
                options.latencyMilliseconds = latency
            case "--fail-rate":
                let text = try value(for: argument)
                guard let rate = Double(text), (0...1).contains(rate) else {
                    throw ParseError(description: "--fail-rate takes a number from 0 to 1, not '\(text)'")
                }
                options.failureRate = rate
            case "--seed":
                let text = try value(for: argument)
                guard let seed = UInt64(text) else {
                    throw ParseError(description: "--seed takes a whole number, not '\(text)'")
                }
                options.seed = seed
            case "--token-file":
                options.tokenFile = try value(for: argument)
            default:
                throw ParseError(description: "unknown option '\(argument)'")
            }
        }
        return options
    }
}
