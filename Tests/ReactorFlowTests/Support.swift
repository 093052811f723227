import Foundation
import ReactorFlow
import ReactorFlowTesting
import Testing

struct TestError: Error, Equatable, CustomStringConvertible {
    let name: String
    init(_ name: String = "boom") { self.name = name }
    var description: String { "TestError(\(name))" }
}

/// Counts how many callers are inside a region at once, and the worst overlap seen.
final class OverlapDetector: @unchecked Sendable { // `inside` and `overlaps` are guarded by `lock`
    private let lock = NSLock()
    private var inside = 0
    private var overlaps = 0

    func enter() {
        lock.withLock {
            inside += 1
            if inside > 1 { overlaps += 1 }
        }
    }

    func leave() {
        lock.withLock { inside -= 1 }
    }

    var overlapCount: Int { lock.withLock { overlaps } }
}

/// A thread-safe counter for tests.
final class Counter: @unchecked Sendable { // `value` is guarded by `lock`
    private let lock = NSLock()
    private var value = 0
    func increment() { lock.withLock { value += 1 } }
    var count: Int { lock.withLock { value } }
}

/// Records events synchronously, for streams that need no clock.
final class EventLog<Element>: @unchecked Sendable { // `events` is guarded by `lock`
    private let lock = NSLock()
    private var recorded: [Event<Element>] = []

    var events: [Event<Element>] { lock.withLock { recorded } }
    var elements: [Element] { events.compactMap(\.element) }

    func observer() -> AnyObserver<Element> {
        AnyObserver { [self] event in lock.withLock { recorded.append(event) } }
    }
}

extension ObservableType {
    /// Subscribes a fresh log.
    func log() -> (EventLog<Element>, Disposable) {
        let log = EventLog<Element>()
        let subscription = subscribe(log.observer())
        return (log, subscription)
    }
}

/// Runs `body(i)` on `threads` real threads at once and waits for all of them.
func onThreads(_ threads: Int, _ body: @escaping @Sendable (Int) -> Void) {
    let group = DispatchGroup()
    let start = DispatchSemaphore(value: 0)
    for index in 0..<threads {
        group.enter()
        Thread.detachNewThread {
            start.wait()
            body(index)
            group.leave()
        }
    }
    for _ in 0..<threads { start.signal() }
    group.wait()
}

/// Holds a non-Sendable value for a test that passes it to threads which synchronise through the framework.
final class Shared<Value>: @unchecked Sendable { // read-only after init; the value's own locks guard it
    let value: Value
    init(_ value: Value) { self.value = value }
}

/// An element whose deinitialisation runs `onDeinit`: user code that a lock must not be held across (rule B12).
final class DeinitPayload {
    let name: String
    let onDeinit: () -> Void
    init(_ name: String, onDeinit: @escaping () -> Void = {}) { self.name = name; self.onDeinit = onDeinit }
    deinit { onDeinit() }
}
