import Foundation
import ReactorFlow
import ReactorFlowTesting
import Testing

/// RxSwift's scheduling calls with a state, recursive and periodic scheduling, `ScheduledDisposable`, and the main
/// queue and operation queue schedulers.
@Suite("Schedulers (A7)")
struct SchedulerTests {
    @Test("A7 an interval too long for 64-bit nanoseconds stops at the bound instead of trapping, in conversions and in a delay")
    func hugeIntervals() {
        #expect(RxTimeInterval.seconds(.max).nanosecondCount == .max)
        #expect(RxTimeInterval.milliseconds(.min).nanosecondCount == .min)
        #expect(RxTimeInterval.microseconds(.max).nanosecondCount == .max)
        #expect(RxTimeInterval.seconds(3).nanosecondCount == 3_000_000_000)
        #expect(RxTimeInterval.seconds(.max).timeInterval == Double(Int64.max) / 1e9)
        #expect(RxTimeInterval.never.nanosecondCount == nil)
        #expect(Int64.max.saturatingAdding(1) == .max && Int64.min.saturatingAdding(-1) == .min)
        #expect(Int64.min.saturatingSubtracting(1) == .min && Int64.max.saturatingSubtracting(-1) == .max)
        #expect(Int64(-3).saturatingMultiplied(by: .max) == .min && Int64(-3).saturatingMultiplied(by: -4) == 12)
        #expect(Int64(saturating: .nan) == 0 && Int64(saturating: 1e30) == .max && Int64(saturating: -1e30) == .min)
        #expect(Int64(saturating: -2.7) == -2)

        let scheduler = TestScheduler(initialClock: 0)
        #expect(scheduler.ticks(.seconds(.max)) == .max)
        let observer = scheduler.start { Observable.just(1).delay(.seconds(.max), scheduler: scheduler) }
        #expect(observer.events == [], "not due before the end of the test")
        #expect(scheduler.pendingWorkCount == 0, "disposed at 1000 with the subscription")

        // Elements delayed by the longest interval, and a clock past 2262 (`Date.distantFuture`), where nanoseconds
        // since 1970 no longer fit: the delays are measured at the bound, and nothing traps.
        let historical = HistoricalScheduler()
        var delayed: [Int] = []
        let bag = DisposeBag()
        Observable.of(1, 2).delay(.seconds(.max), scheduler: historical).subscribe(onNext: { delayed.append($0) }).disposed(by: bag)
        historical.start()
        #expect(delayed == [1, 2])
        #expect(historical.now.timeIntervalSince1970 == Double(Int64.max) / 1e9)

        let future = HistoricalScheduler(initialClock: .distantFuture)
        var late: [String] = []
        Observable.of(1, 2).delay(.seconds(1), scheduler: future).subscribe(onNext: { late.append("delay \($0)") }).disposed(by: bag)
        Observable.of(3, 4).throttle(.seconds(1), scheduler: future).subscribe(onNext: { late.append("throttle \($0)") }).disposed(by: bag)
        future.start()
        #expect(late == ["throttle 3", "delay 1", "throttle 4", "delay 2"]) // all a second after the start, in scheduling order
    }

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

extension SchedulerTests {
    @Test("A7 SerialDispatchQueueScheduler's RxSwift initialisers: a named queue, configured before use, or one on a target queue; work runs in order, delays within the leeway")
    func serialDispatchQueueSchedulers() async throws {
        let configured = LockedList<String>()
        let named = SerialDispatchQueueScheduler(internalSerialQueueName: "tests.named",
                                                 serialQueueConfiguration: { configured.append($0.label) })
        #expect(named.queue.label == "tests.named")
        #expect(configured.items == ["tests.named"])
        #expect(named.leeway == .nanoseconds(0))
        let targeted = SerialDispatchQueueScheduler(queue: .global(), internalSerialQueueName: "tests.targeted",
                                                    leeway: .milliseconds(5))
        #expect(targeted.queue.label == "tests.targeted")
        #expect(targeted.leeway == .milliseconds(5))
        #expect(SerialDispatchQueueScheduler(qos: .utility, leeway: .milliseconds(2)).leeway == .milliseconds(2))

        let order = LockedList<Int>()
        for value in 0..<50 { _ = targeted.schedule { order.append(value) } }
        // The queue is held until the delayed action is disposed, so that it cannot run first however slow this
        // thread is.
        let gate = DispatchSemaphore(value: 0)
        targeted.queue.async { gate.wait() }
        let cancelled = targeted.scheduleRelative(.milliseconds(1)) { order.append(-1) }
        cancelled.dispose()
        gate.signal()
        targeted.queue.sync {}
        #expect(order.items == Array(0..<50))
        #expect(try await Observable.of(1, 2).delay(.milliseconds(1), scheduler: targeted).values.collect() == [1, 2])
        #expect(!order.items.contains(-1))
    }

    @Test("A7 MainScheduler is a SerialDispatchQueueScheduler on the main queue, as in RxSwift: kept as one, it still runs an action inline on the main queue, and its delayed actions run there, and one disposed first does not")
    func mainSchedulerIsASerialDispatchQueueScheduler() async {
        let shared: SerialDispatchQueueScheduler = MainScheduler.instance // as RxSwift code keeps it
        #expect(shared.queue.label == DispatchQueue.main.label) // a wrapper of its own each time on Linux, so not `===`
        #expect(shared.leeway == .nanoseconds(0))
        // One of its own, whose actions other tests running meanwhile cannot hold up.
        let scheduler: SerialDispatchQueueScheduler = MainScheduler()
        let order = await onMainQueue { received, finish in
            _ = scheduler.scheduleRelative(.milliseconds(1)) {
                received.append(MainScheduler.isOnMainQueue ? 3 : -3)
                _ = scheduler.scheduleRelative(.milliseconds(5)) {
                    received.append(MainScheduler.isOnMainQueue ? 4 : -4)
                    finish()
                }
            }
            let cancelled = scheduler.scheduleRelative(.milliseconds(1)) { received.append(-1) }
            cancelled.dispose()
            _ = scheduler.schedule { received.append(1) } // on the main queue with nothing pending: inline
            received.append(2)
            return Disposables.create()
        }
        #expect(order == [1, 2, 3, 4])
    }

    @Test("A7 from(_:scheduler: MainScheduler.instance) subscribed on the main queue: the first element goes out inline, the next ones queued, none lost")
    func fromOnTheMainSchedulerSendsEveryElement() async {
        let delivered = await onMainQueue { received, finish in
            Observable.from([1, 2, 3], scheduler: MainScheduler.instance)
                .subscribe(onNext: { received.append($0) }, onCompleted: finish)
        }
        #expect(delivered == [1, 2, 3])
    }

    @Test("A7 observe(on:) a SerialDispatchQueueScheduler schedules each event as it arrives: an action scheduled there after two events were sent runs after both deliveries")
    func observeOnSerialQueueSchedulesEachEvent() {
        let scheduler = SerialDispatchQueueScheduler(internalSerialQueueName: "observe-on-order")
        let received = LockedValue<[Int]>([])
        let subject = PublishSubject<Int>()
        let subscription = subject.observe(on: scheduler).subscribe(onNext: { value in received.withLock { $0.append(value) } })
        // The queue is held while both events are sent and the check is scheduled, so every delivery that is not
        // scheduled before the check would run after it.
        let held = DispatchSemaphore(value: 0)
        _ = scheduler.schedule { held.wait() }
        subject.onNext(1)
        subject.onNext(2)
        let seenByLaterAction = LockedValue<[Int]?>(nil)
        let checked = DispatchSemaphore(value: 0)
        _ = scheduler.schedule {
            seenByLaterAction.withLock { $0 = received.current }
            checked.signal()
        }
        held.signal()
        #expect(checked.wait(timeout: .now() + 10) == .success)
        #expect(seenByLaterAction.current == [1, 2])
        subscription.dispose()
    }

    @Test("A7 observe(on: MainScheduler.instance) on the main queue: an event sent during an inline delivery is delivered after it, not lost")
    func observeOnMainKeepsAReentrantEvent() async {
        let delivered = await onMainQueue { received, finish in
            let subject = PublishSubject<Int>()
            let subscription = subject.observe(on: MainScheduler.instance).subscribe(onNext: { value in
                received.append(value)
                if value == 1 { subject.onNext(2) } // sent while 1 is being delivered, inline
                if value == 2 { finish() }
            })
            subject.onNext(1)
            return subscription
        }
        #expect(delivered == [1, 2])
    }

    @Test("A7 and A12 each MainScheduler() counts only its own actions, so Drivers and Binders, each with its own, deliver a nested element inline, as in RxCocoa")
    func mainSchedulersOfTheirOwn() async {
        let nested = await onMainQueue { received, finish in
            _ = MainScheduler.instance.schedule {
                _ = MainScheduler.instance.schedule { received.append(1) } // queued behind the running one
                _ = MainScheduler().schedule { received.append(2) } // another scheduler: inline
                received.append(3)
                _ = MainScheduler.instance.schedule(finish)
            }
            return Disposables.create()
        }
        #expect(nested == [2, 3, 1])

        let queued = await onMainQueue { received, finish in
            let asyncScheduler: SerialDispatchQueueScheduler = MainScheduler.asyncInstance // RxSwift's type
            _ = asyncScheduler.schedule {
                received.append(2)
                finish()
            }
            received.append(1)
            return Disposables.create()
        }
        #expect(queued == [1, 2], "asyncInstance queues even on the main queue")

        let driven = await onMainQueue { received, finish in
            let relay = BehaviorRelay(value: 0)
            let bag = DisposeBag()
            relay.asDriver().drive(onNext: { received.append($0) }).disposed(by: bag)
            Observable.just(1).asDriver(onErrorJustReturn: -1).drive(relay).disposed(by: bag)
            Observable.just(2).asDriver(onErrorJustReturn: -1).drive(relay).disposed(by: bag)
            received.append(99) // after both, so both were delivered inline
            finish()
            return Disposables.create { _ = bag }
        }
        #expect(driven == [0, 1, 2, 99])

        let bound = await onMainQueue { received, finish in
            let target = RxLabel()
            let binder = Binder<Int>(target) { _, value in received.append(value) }
            _ = MainScheduler.instance.schedule {
                binder.onNext(1) // on the Binder's own MainScheduler(): applied at once
                received.append(2)
                _ = MainScheduler.instance.schedule {
                    _ = target
                    finish()
                }
            }
            return Disposables.create()
        }
        #expect(bound == [1, 2])
    }

    /// Runs `body` on the main queue and returns what it put in `received` once it calls `finish`, or after ten
    /// seconds: a bound, so that a lost event fails the test instead of hanging it.
    private func onMainQueue(_ body: @escaping (_ received: LockedList<Int>, _ finish: @escaping () -> Void) -> Disposable) async -> [Int] {
        await withCheckedContinuation { (continuation: CheckedContinuation<[Int], Never>) in
            let work = Shared(body)
            DispatchQueue.main.async {
                let received = LockedList<Int>()
                let resumed = LockedList<Bool>()
                func finish() {
                    guard resumed.items.isEmpty else { return }
                    resumed.append(true)
                    continuation.resume(returning: received.items)
                }
                let subscription = Shared(work.value(received, finish))
                DispatchQueue.main.asyncAfter(deadline: .now() + 10) {
                    finish()
                    subscription.value.dispose()
                }
            }
        }
    }

    @Test("A7 MainScheduler.ensureRunningOnMainThread reports a notOnMainQueue diagnostic off the main queue, and nothing on it")
    func ensureRunningOnMainThread() async {
        let collected = DiagnosticsCollector()
        defer { collected.stop() }
        DispatchQueue.global().sync { MainScheduler.ensureRunningOnMainThread(errorMessage: "tests: not on main") }
        DispatchQueue.global().sync { MainScheduler.ensureExecutingOnScheduler() }
        await withCheckedContinuation { continuation in
            DispatchQueue.main.async {
                MainScheduler.ensureRunningOnMainThread(errorMessage: "tests: on main")
                continuation.resume()
            }
        }
        #expect(collected.matching("tests: not on main").map(\.kind) == [.notOnMainQueue])
        #expect(collected.matching("MainScheduler.instance.schedule").map(\.kind) == [.notOnMainQueue])
        #expect(collected.matching("tests: on main").isEmpty)
    }
}

extension SchedulerTests {
    @Test("A7 a scheduler written for RxSwift, with only the forms that pass a state, conforms; operators and the plain forms run on it")
    func schedulerWrittenForRxSwift() {
        let clock = TestScheduler(initialClock: 0)
        let scheduler = StateFormScheduler(on: clock)
        var received: [(TestTime, Int)] = []
        _ = Observable.of(1, 2).delay(.seconds(5), scheduler: scheduler).subscribe(onNext: { received.append((clock.clock, $0)) })
        _ = Observable<Int>.interval(.seconds(10), scheduler: scheduler).take(3)
            .subscribe(onNext: { received.append((clock.clock, 100 + $0)) })
        var plain: [TestTime] = []
        _ = scheduler.schedule { plain.append(clock.clock) }
        let cancelled = scheduler.scheduleRelative(.seconds(1)) { plain.append(-1) }
        cancelled.dispose()
        clock.start()
        #expect(received.map(\.0) == [5, 6, 10, 20, 30], "as on TestScheduler itself: the second delayed element a tick later (D3)")
        #expect(received.map(\.1) == [1, 2, 100, 101, 102])
        #expect(plain == [1])
        #expect(scheduler.periodicRuns == 3, "interval ran on the scheduler's own periodic timer")
        #expect(scheduler.stateFormCalls > 0)
    }

    @Test("A7 a scheduler that implements neither form of schedule reports schedulerIncomplete and runs nothing")
    func incompleteScheduler() {
        let collected = DiagnosticsCollector()
        defer { collected.stop() }
        var ran = false
        let scheduler = IncompleteScheduler()
        scheduler.schedule { ran = true }.dispose()
        _ = scheduler.schedule(1) { _ in
            ran = true
            return Disposables.create()
        }
        scheduler.scheduleRelative(.seconds(1)) { ran = true }.dispose()
        #expect(!ran)
        let reported = collected.matching("IncompleteScheduler implements neither")
        #expect(reported.map(\.kind) == [.schedulerIncomplete, .schedulerIncomplete, .schedulerIncomplete])
        #expect(reported.map(\.message) == [
            "IncompleteScheduler implements neither schedule(_:) nor schedule(_:action:); nothing was run",
            "IncompleteScheduler implements neither schedule(_:) nor schedule(_:action:); nothing was run",
            "IncompleteScheduler implements neither scheduleRelative(_:action:) nor scheduleRelative(_:dueTime:action:); nothing was run",
        ])
    }
}

/// A scheduler as RxSwift code writes one: only `now` and the forms that pass a state, over a virtual clock.
private final class StateFormScheduler: SchedulerType {
    private let clock: TestScheduler
    private(set) var stateFormCalls = 0
    private(set) var periodicRuns = 0

    init(on clock: TestScheduler) {
        self.clock = clock
    }

    var now: RxTime { clock.now }

    func schedule<StateType>(_ state: StateType, action: @escaping (StateType) -> Disposable) -> Disposable {
        stateFormCalls += 1
        let result = SerialDisposable()
        result.disposable = clock.scheduleRelative(.seconds(1)) { result.disposable = action(state) }
        return result
    }

    func scheduleRelative<StateType>(_ state: StateType, dueTime: RxTimeInterval,
                                     action: @escaping (StateType) -> Disposable) -> Disposable {
        stateFormCalls += 1
        let result = SerialDisposable()
        result.disposable = clock.scheduleRelative(dueTime) { result.disposable = action(state) }
        return result
    }

    func schedulePeriodic<StateType>(_ state: StateType, startAfter: RxTimeInterval, period: RxTimeInterval,
                                     action: @escaping (StateType) -> StateType) -> Disposable {
        var current = state
        return clock.schedulePeriodic(startAfter: startAfter, period: period) { [self] in
            periodicRuns += 1
            current = action(current)
        }
    }
}

/// A scheduler that implements neither form of anything.
private struct IncompleteScheduler: SchedulerType {
    var now: RxTime { Date(timeIntervalSince1970: 0) }
}

/// A list that threads append to under a lock.
final class LockedList<Item>: @unchecked Sendable { // `stored` is guarded by `lock`
    private let lock = NSLock()
    private var stored: [Item] = []
    func append(_ item: Item) { lock.withLock { stored.append(item) } }
    var items: [Item] { lock.withLock { stored } }
}

/// `VirtualTimeScheduler` and `HistoricalScheduler`: RxSwift's virtual clocks outside tests.
@Suite("Virtual-time schedulers (A7)")
struct VirtualTimeSchedulerTests {
    private let origin = Date(timeIntervalSince1970: 1_000)

    @Test("A7 HistoricalScheduler runs an interval at its dates without waiting, and its clock follows")
    func historicalInterval() {
        let scheduler = HistoricalScheduler(initialClock: origin)
        var seen: [(Int, TimeInterval)] = []
        var completedAt: TimeInterval?
        _ = Observable<Int>.interval(.seconds(60), scheduler: scheduler).take(3).subscribe(
            onNext: { seen.append(($0, scheduler.now.timeIntervalSince1970)) },
            onCompleted: { completedAt = scheduler.now.timeIntervalSince1970 })
        scheduler.start()
        #expect(seen.map(\.0) == [0, 1, 2])
        #expect(seen.map(\.1) == [1_060, 1_120, 1_180])
        #expect(completedAt == 1_180)
        #expect(scheduler.clock == origin.addingTimeInterval(180))
        #expect(HistoricalScheduler().clock == Date(timeIntervalSince1970: 0))
    }

    @Test("A7 virtual time runs work in time order, at equal times in scheduling order; the clock never goes back for past work")
    func timeOrderAndTheClock() {
        let scheduler = HistoricalScheduler(initialClock: origin)
        var order: [String] = []
        func record(_ name: String, at offset: TimeInterval) -> Disposable {
            scheduler.scheduleAbsoluteVirtual(name, time: origin.addingTimeInterval(offset)) { name in
                order.append("\(name)@\(Int(scheduler.clock.timeIntervalSince1970))")
                return Disposables.create()
            }
        }
        _ = record("c", at: 30)
        _ = record("a", at: 10)
        _ = record("a2", at: 10)
        record("cancelled", at: 20).dispose()
        _ = record("past", at: -50)
        _ = scheduler.schedule("now") { name in
            order.append("\(name)@\(Int(scheduler.clock.timeIntervalSince1970))")
            return Disposables.create()
        }
        scheduler.advanceTo(origin.addingTimeInterval(10))
        #expect(order == ["past@1000", "now@1000", "a@1010", "a2@1010"])
        #expect(scheduler.clock == origin.addingTimeInterval(10))

        // As in RxSwift, advanceTo sets the clock even to an earlier time; sleep moves it on without running work.
        scheduler.advanceTo(origin.addingTimeInterval(5))
        #expect(scheduler.clock == origin.addingTimeInterval(5))
        scheduler.sleep(7)
        #expect(scheduler.clock == origin.addingTimeInterval(12))
        scheduler.sleep(-100) // into the past: ignored
        #expect(scheduler.clock == origin.addingTimeInterval(12))
        _ = scheduler.scheduleRelativeVirtual("relative", dueTime: 3) { name in
            order.append("\(name)@\(Int(scheduler.clock.timeIntervalSince1970))")
            return Disposables.create()
        }
        scheduler.start()
        #expect(order == ["past@1000", "now@1000", "a@1010", "a2@1010", "relative@1015", "c@1030"])
        #expect(scheduler.clock == origin.addingTimeInterval(30))
        #expect(scheduler.debugDescription.hasSuffix("pending: [])"))
    }

    @Test("A7 stop() ends a run after the current item; a run started from inside a run does nothing")
    func stopAndNestedRuns() {
        let scheduler = HistoricalScheduler(initialClock: origin)
        var ran: [Int] = []
        _ = scheduler.scheduleRelative(.seconds(1)) {
            ran.append(1)
            scheduler.start()
            scheduler.advanceTo(self.origin.addingTimeInterval(100))
            scheduler.stop()
        }
        _ = scheduler.scheduleRelative(.seconds(2)) { ran.append(2) }
        scheduler.start()
        #expect(ran == [1])
        #expect(scheduler.clock == origin.addingTimeInterval(1))
        scheduler.start()
        #expect(ran == [1, 2])
    }

    @Test("A7 a VirtualTimeScheduler of your own: its converter's units, and adjustScheduledTime moving relative work")
    func customConverterAndAdjustment() {
        let scheduler = DelayedTickScheduler()
        var seen: [(String, Int)] = []
        _ = scheduler.scheduleRelative("relative", dueTime: .seconds(5)) { name in
            seen.append((name, scheduler.clock))
            return Disposables.create()
        }
        _ = scheduler.scheduleAbsoluteVirtual("absolute", time: 3) { name in
            seen.append((name, scheduler.clock))
            return Disposables.create()
        }
        let cancelled = scheduler.scheduleRelativeVirtual("cancelled", dueTime: 1) { name in
            seen.append((name, scheduler.clock))
            return Disposables.create()
        }
        cancelled.dispose()
        scheduler.start()
        #expect(seen.map(\.0) == ["absolute", "relative"])
        #expect(seen.map(\.1) == [3, 15]) // 5 ticks from now, moved 10 later by the subclass
        #expect(scheduler.now == Date(timeIntervalSince1970: 15))
    }
}

/// Whole seconds as virtual time.
private struct TickConverter: VirtualTimeConverterType {
    func convertFromVirtualTime(_ virtualTime: Int) -> RxTime { Date(timeIntervalSince1970: Double(virtualTime)) }
    func convertToVirtualTime(_ time: RxTime) -> Int { Int(time.timeIntervalSince1970.rounded()) }
    func convertFromVirtualTimeInterval(_ virtualTimeInterval: Int) -> TimeInterval { Double(virtualTimeInterval) }
    func convertToVirtualTimeInterval(_ timeInterval: TimeInterval) -> Int { Int(timeInterval.rounded()) }
    func offsetVirtualTime(_ time: Int, offset: Int) -> Int { time + offset }
    func compareVirtualTime(_ lhs: Int, _ rhs: Int) -> VirtualTimeComparison {
        lhs < rhs ? .lessThan : lhs == rhs ? .equal : .greaterThan
    }
}

/// Runs work scheduled relative to now ten ticks late.
private final class DelayedTickScheduler: VirtualTimeScheduler<TickConverter> {
    init() { super.init(initialClock: 0, converter: TickConverter()) }
    override func adjustScheduledTime(_ time: Int) -> Int { time + 10 }
}
