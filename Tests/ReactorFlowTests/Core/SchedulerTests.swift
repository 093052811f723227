import Foundation
import ReactorFlow
import ReactorFlowTesting
import Testing

/// RxSwift's scheduling calls with a state, recursive and periodic scheduling, `ScheduledDisposable`, and the main
/// queue and operation queue schedulers.
@Suite("Schedulers (A7)")
struct SchedulerTests {
    @Test("A7 schedule(_:action:) and scheduleRelative(_:dueTime:action:) pass the state, can be cancelled, and dispose what the action returned")
    func scheduleWithState() {
        let clock = TestScheduler(initialClock: 0)
        var ran: [(TestTime, String)] = []
        var released: [String] = []
        let now = clock.schedule("now") { name in
            ran.append((clock.clock, name))
            return Disposables.create { released.append(name) }
        }
        let later = clock.scheduleRelative("later", dueTime: .seconds(20)) { name in
            ran.append((clock.clock, name))
            return Disposables.create { released.append(name) }
        }
        let cancelled = clock.scheduleRelative("cancelled", dueTime: .seconds(10)) { name in
            ran.append((clock.clock, name))
            return Disposables.create()
        }
        cancelled.dispose()
        clock.start()
        #expect(ran.map(\.0) == [1, 20])
        #expect(ran.map(\.1) == ["now", "later"])
        #expect(released == [])
        later.dispose()
        now.dispose()
        now.dispose()
        #expect(released == ["later", "now"])
    }

    @Test("A7 schedulePeriodic(_:startAfter:period:action:) passes each run the state the previous one returned")
    func schedulePeriodicWithState() {
        let clock = TestScheduler(initialClock: 0)
        var seen: [(TestTime, Int)] = []
        let ticks = clock.schedulePeriodic(1, startAfter: .seconds(5), period: .seconds(10)) { value in
            seen.append((clock.clock, value))
            return value * 2
        }
        clock.advance(to: 40)
        ticks.dispose()
        clock.advance(to: 100)
        #expect(seen.map(\.0) == [5, 15, 25, 35])
        #expect(seen.map(\.1) == [1, 2, 4, 8])
    }

    @Test("A7 scheduleRecursive runs each recursion after the current run on the current thread, and disposing cancels what is pending")
    func scheduleRecursive() {
        var log: [String] = []
        let countdown = CurrentThreadScheduler.instance.scheduleRecursive(3) { count, recurse in
            log.append("start \(count)")
            if count > 0 { recurse(count - 1) }
            log.append("end \(count)")
        }
        #expect(log == ["start 3", "end 3", "start 2", "end 2", "start 1", "end 1", "start 0", "end 0"])
        countdown.dispose()

        // Each recursion is scheduled like `schedule`: on a TestScheduler, one tick later. Two recursions from one
        // run both go ahead; disposing stops the rest.
        let clock = TestScheduler(initialClock: 0)
        var visited: [(TestTime, String)] = []
        let walk = clock.scheduleRecursive("a") { node, recurse in
            visited.append((clock.clock, node))
            if node.count < 3 {
                recurse(node + "l")
                recurse(node + "r")
            }
        }
        clock.advance(to: 2)
        #expect(visited.map(\.1) == ["a", "al", "ar"])
        #expect(visited.map(\.0) == [1, 2, 2])
        walk.dispose()
        walk.dispose()
        clock.start()
        #expect(visited.count == 3)
        #expect(!clock.hasPendingWork)
    }

    @Test("A7 and B12 a disposed scheduleRecursive lets go of its action")
    func scheduleRecursiveReleasesItsAction() {
        final class Captured {}
        weak var weakCaptured: Captured?
        let clock = TestScheduler(initialClock: 0)
        var recursion: Disposable?
        do {
            let captured = Captured()
            weakCaptured = captured
            recursion = clock.scheduleRecursive(0) { value, recurse in
                _ = captured
                recurse(value + 1)
            }
        }
        clock.advance(to: 5)
        #expect(weakCaptured != nil)
        recursion?.dispose()
        #expect(weakCaptured == nil)
    }

    @Test("A3 ScheduledDisposable disposes what it wraps on its scheduler, once")
    func scheduledDisposable() {
        let clock = TestScheduler(initialClock: 0)
        var disposedAt: [TestTime] = []
        let wrapped = ScheduledDisposable(scheduler: clock, disposable: Disposables.create { disposedAt.append(clock.clock) })
        clock.advance(to: 10)
        wrapped.dispose()
        wrapped.dispose()
        #expect(!wrapped.isDisposed)
        #expect(disposedAt == [])
        clock.start()
        #expect(wrapped.isDisposed)
        #expect(disposedAt == [11])
        wrapped.dispose()
        clock.start()
        #expect(disposedAt == [11])
        #expect(wrapped.scheduler is TestScheduler)
    }

    @Test("A7 OperationQueueScheduler runs each action as an operation on its queue; disposing one first skips it")
    func operationQueueScheduler() {
        let queue = OperationQueue()
        queue.maxConcurrentOperationCount = 1
        queue.isSuspended = true
        let scheduler = OperationQueueScheduler(operationQueue: queue, queuePriority: .high)
        #expect(scheduler.queuePriority == .high)
        #expect(scheduler.operationQueue === queue)
        let ran = Shared(LockedList<Int>())
        _ = scheduler.schedule { ran.value.append(1) }
        let skipped = scheduler.schedule { ran.value.append(2) }
        _ = scheduler.schedule { ran.value.append(3) }
        skipped.dispose()
        queue.isSuspended = false
        queue.waitUntilAllOperationsAreFinished()
        #expect(ran.value.items == [1, 3])
    }

    @Test("A7 MainScheduler.instance queues an action scheduled inside another, or behind one already queued; ConcurrentMainScheduler runs it inline")
    func mainSchedulersInlineOrQueue() async {
        let order = await withCheckedContinuation { (continuation: CheckedContinuation<[String], Never>) in
            DispatchQueue.main.async {
                var order: [String] = []
                _ = MainScheduler.instance.schedule {
                    order.append("outer")
                    _ = MainScheduler.instance.schedule {
                        order.append("nested")
                        continuation.resume(returning: order)
                    }
                    order.append("outer returns")
                }
            }
        }
        #expect(order == ["outer", "outer returns", "nested"])

        let behind = await withCheckedContinuation { (continuation: CheckedContinuation<[String], Never>) in
            DispatchQueue.main.async {
                let order = Shared(LockedList<String>())
                // Queued from another thread, so it waits for the main queue; the next one must not overtake it.
                DispatchQueue.global().sync { _ = MainScheduler.instance.schedule { order.value.append("queued") } }
                _ = MainScheduler.instance.schedule {
                    order.value.append("scheduled on main")
                    continuation.resume(returning: order.value.items)
                }
                order.value.append("main block returns")
            }
        }
        #expect(behind == ["main block returns", "queued", "scheduled on main"])

        let concurrent = await withCheckedContinuation { (continuation: CheckedContinuation<[String], Never>) in
            DispatchQueue.main.async {
                var order: [String] = []
                _ = ConcurrentMainScheduler.instance.schedule {
                    order.append("outer")
                    _ = ConcurrentMainScheduler.instance.schedule { order.append("nested") }
                    order.append("outer returns")
                    continuation.resume(returning: order)
                }
            }
        }
        #expect(concurrent == ["outer", "nested", "outer returns"])
        let onMain = await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
            _ = ConcurrentMainScheduler.instance.scheduleRelative(.milliseconds(1)) {
                continuation.resume(returning: MainScheduler.isOnMainQueue)
            }
        }
        #expect(onMain)
    }
}

/// A list that threads append to under a lock.
final class LockedList<Item>: @unchecked Sendable { // `stored` is guarded by `lock`
    private let lock = NSLock()
    private var stored: [Item] = []
    func append(_ item: Item) { lock.withLock { stored.append(item) } }
    var items: [Item] { lock.withLock { stored } }
}
