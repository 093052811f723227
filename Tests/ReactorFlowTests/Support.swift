import Foundation
import ReactorFlow
import ReactorFlowTesting
import Synchronization
import Testing

struct TestError: Error, Equatable, CustomStringConvertible {
    let name: String
    init(_ name: String = "boom") { self.name = name }
    var description: String { "TestError(\(name))" }
}

/// Counts how many callers are inside a region at once, and the worst overlap seen.
final class OverlapDetector: Sendable {
    private let inside = Atomic<Int>(0)
    private let overlaps = Atomic<Int>(0)

    func enter() {
        if inside.wrappingAdd(1, ordering: .sequentiallyConsistent).newValue > 1 {
            overlaps.wrappingAdd(1, ordering: .sequentiallyConsistent)
        }
    }

    func leave() {
        inside.wrappingSubtract(1, ordering: .sequentiallyConsistent)
    }

    var overlapCount: Int { overlaps.load(ordering: .sequentiallyConsistent) }
}

/// A thread-safe counter for tests.
final class Counter: Sendable {
    private let value = Atomic<Int>(0)
    func increment() { value.wrappingAdd(1, ordering: .sequentiallyConsistent) }
    var count: Int { value.load(ordering: .sequentiallyConsistent) }
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
