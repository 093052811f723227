import Foundation
@testable import ReactorFlow
import Testing

@Suite("InlineLock")
struct InlineLockTests {
    /// The reactor a `Stub` is made for.
    private final class StubbedReactor: Reactor {
        typealias Action = Int
        let initialState = 0
        let reactorStorage = ReactorStorage()
        func reduce(state: Int, mutation: Int) -> Int { state + mutation }
    }

    /// A lock owner of the tests' own, for the contention test.
    private final class Counter: @unchecked Sendable { // `count` is guarded by its inline lock
        private var lockWord = 0
        private var count = 0
        private var lock: InlineLock { InlineLock(of: self) }

        func increment() { lock.withLock { count += 1 } }
        var current: Int { lock.withLock { count } }
    }

    /// Every object that keeps its lock inline, by the name of its class, one made of each.
    private static func owners() -> [(name: String, object: AnyObject)] {
        let sink = Sink<Int>(AnyObserver { _ in })
        return [
            ("Sink", sink),
            ("SerializedObserver", SerializedObserver<Int>(AnyObserver { _ in })),
            ("MergeSink", MergeSink<Int, Int>(downstream: sink, maxConcurrent: 1, selector: { .just($0) })),
            ("FlatMapLatestSink", FlatMapLatestSink<Int, Int>(downstream: sink, selector: { .just($0) })),
            ("RecursiveScheduling", RecursiveScheduling<Int>(scheduler: CurrentThreadScheduler.instance, action: { _, _ in })),
            ("CompositeDisposable", CompositeDisposable()),
            ("ActionDisposable", ActionDisposable {}),
            ("BooleanDisposable", BooleanDisposable()),
            ("DisposeBag", DisposeBag()),
            ("RefCountDisposable", RefCountDisposable(disposable: Disposables.create())),
            ("ScheduledDisposable", ScheduledDisposable(scheduler: CurrentThreadScheduler.instance, disposable: Disposables.create())),
            ("SerialDisposable", SerialDisposable()),
            ("SingleAssignmentDisposable", SingleAssignmentDisposable()),
            ("Stub", Stub<StubbedReactor>(initialState: 0)),
            ("SendToken", SendToken()),
            ("LockedValue", LockedValue(0)),
            ("InTurnRun", InTurnRun([])),
        ]
    }

    @Test("each object that keeps its lock inline has it as its first stored property, which lock() and unlock() change")
    func theWordIsTheFirstStoredProperty() {
        for (name, object) in Self.owners() {
            let first = { Mirror(reflecting: object).children.first }
            // Checked before locking: a lock on another property's bytes could wait forever.
            guard first()?.label == "lockWord", first()?.value as? Int == 0 else {
                Issue.record("\(name)'s first stored property is not its lock's word, 0: \(String(describing: first()))")
                continue
            }
            InlineLock(of: object).lock()
            #expect(first()?.value as? Int == 1, "\(name)")
            InlineLock(of: object).unlock()
            #expect(first()?.value as? Int == 0, "\(name)")
        }
    }

    @Test("the test above covers every class in ReactorFlow's sources that reads its lock as InlineLock(of: self)")
    func everyOwnerIsChecked() throws {
        let sources = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Sources/ReactorFlow")
        let files = try #require(FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil))
        var found: Set<String> = []
        for case let file as URL in files where file.pathExtension == "swift" {
            var enclosingClass: String?
            for line in try String(contentsOf: file, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false) {
                if line.trimmingPrefix(while: \.isWhitespace).hasPrefix("//") { continue }
                if line.contains("class "),
                   let match = line.firstMatch(of: /^(?:public |package |private |fileprivate )?(?:final )?class (\w+)/) {
                    enclosingClass = String(match.1)
                }
                if line.contains("InlineLock(of: self)"), let enclosingClass { found.insert(enclosingClass) }
            }
        }
        #expect(found == Set(Self.owners().map(\.name)))
    }

    @Test("a contended lock parks in the room its word's address picks: always the same one for a lock, and 1,000 objects' locks use all 16 rooms")
    func waitRooms() {
        let counters = (0..<1_000).map { _ in Counter() }
        let rooms = counters.map { ObjectIdentifier(WaitRoom.room(forLockAt: InlineLock(of: $0).word)) }
        #expect(Set(rooms).count == WaitRoom.locks.count)
        #expect(WaitRoom.locks.count == 16)
        #expect(counters.map { ObjectIdentifier(WaitRoom.room(forLockAt: InlineLock(of: $0).word)) } == rooms)
    }

    @Test("4 threads × 50,000 increments of each of two counters whose locks park in different rooms leave exactly 200,000 in each")
    func excludesAcrossRooms() throws {
        let counters = (0..<64).map { _ in Counter() }
        let room = { (counter: Counter) in ObjectIdentifier(WaitRoom.room(forLockAt: InlineLock(of: counter).word)) }
        let first = counters[0]
        let second = try #require(counters.first { room($0) != room(first) })
        DispatchQueue.concurrentPerform(iterations: 4) { thread in
            for _ in 0..<50_000 {
                if thread.isMultiple(of: 2) {
                    first.increment()
                    second.increment()
                } else {
                    second.increment()
                    first.increment()
                }
            }
        }
        #expect(first.current == 200_000)
        #expect(second.current == 200_000)
    }

    @Test("4 threads × 50,000 increments under one inline lock leave exactly 200,000")
    func excludes() {
        let counter = Counter()
        DispatchQueue.concurrentPerform(iterations: 4) { _ in
            for _ in 0..<50_000 { counter.increment() }
        }
        #expect(counter.current == 200_000)
    }
}
