import Foundation

/// Prints numbered, timestamped lines from any thread, and counts what happened for the summary.
final class Timeline: @unchecked Sendable { // every field is guarded by `lock`
    private let lock = NSLock()
    private let start = Date()
    private var counts: [String: Int] = [:]
    let quiet: Bool

    init(quiet: Bool = false) {
        self.quiet = quiet
    }

    func log(_ kind: String, _ text: String) {
        lock.withLock {
            counts[kind, default: 0] += 1
            guard !quiet else { return }
            let elapsed = Int(Date().timeIntervalSince(start) * 1000)
            let padded = kind.padding(toLength: 9, withPad: " ", startingAt: 0)
            print(String(format: "%6d ms  ", elapsed) + padded + " " + text)
        }
    }

    func chapter(_ title: String) {
        lock.withLock {
            guard !quiet else { return }
            print("\n── \(title)")
        }
    }

    func count(_ kind: String) -> Int { lock.withLock { counts[kind, default: 0] } }
}
