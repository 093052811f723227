import Foundation
import ReactorFlow
import ReactorFlowTesting
import Testing

@Suite("Threads (A2, A3, A7)")
struct ConcurrencyTests {
    @Test("A2 8 threads × 100,000 through merge and flatMap: every event, never concurrently")
    func subjectMergeFlatMapUnderLoad() {
        let subject = PublishSubject<Int>()
        let other = PublishSubject<Int>()
        let detector = OverlapDetector()
        let delivered = Counter()
        let pipeline = Observable.merge(subject.asObservable(), other.asObservable())
            .flatMap { Observable.just($0) }
        let subscription = pipeline.subscribe(onNext: { _ in
            detector.enter()
            delivered.increment()
            detector.leave()
        })
        let inputs = Shared((subject, other))
        onThreads(8) { thread in
            let target = thread.isMultiple(of: 2) ? inputs.value.0 : inputs.value.1
            for value in 0..<100_000 { target.onNext(value) }
        }
        subscription.dispose()
        #expect(delivered.count == 800_000)
        #expect(detector.overlapCount == 0)
    }

    @Test("A2 combineLatest and withLatestFrom serialize sources on different threads")
    func multiSourceOperatorsSerialize() {
        let a = PublishSubject<Int>()
        let b = PublishSubject<Int>()
        let detector = OverlapDetector()
        let delivered = Counter()
        let subscription = Observable.combineLatest(a, b) { $0 + $1 }.subscribe(onNext: { _ in
            detector.enter()
            delivered.increment()
            detector.leave()
        })
        a.onNext(0)
        b.onNext(0)
        let inputs = Shared((a, b))
        onThreads(4) { thread in
            let target = thread.isMultiple(of: 2) ? inputs.value.0 : inputs.value.1
            for value in 0..<20_000 { target.onNext(value) }
        }
        subscription.dispose()
        #expect(delivered.count == 80_001)
        #expect(detector.overlapCount == 0)
    }

    @Test("A3 dispose racing with delivery: nothing after dispose returns on the delivering thread")
    func disposeRacesWithDelivery() {
        for _ in 0..<200 {
            let subject = PublishSubject<Int>()
            let afterDispose = Counter()
            let disposed = LockedFlag()
            let subscription = subject.subscribe(onNext: { _ in if disposed.value { afterDispose.increment() } })
            let shared = Shared((subject, subscription))
            onThreads(2) { thread in
                if thread == 0 {
                    for value in 0..<200 { shared.value.0.onNext(value) }
                } else {
                    shared.value.1.dispose()
                    shared.value.1.dispose()
                }
            }
            disposed.value = true
            subject.onNext(-1)
            #expect(afterDispose.count == 0)
        }
    }

    @Test("A7 current-thread scheduler: 100,000 nested schedules complete without stack overflow")
    func trampolineDoesNotRecurse() {
        var depth = 0
        var maxNesting = 0
        var nesting = 0
        func step() {
            nesting += 1
            maxNesting = max(maxNesting, nesting)
            depth += 1
            if depth < 100_000 { _ = CurrentThreadScheduler.instance.schedule(step) }
            nesting -= 1
        }
        #expect(CurrentThreadScheduler.isScheduleRequired)
        _ = CurrentThreadScheduler.instance.schedule(step)
        #expect(depth == 100_000)
        #expect(maxNesting == 1)
        #expect(CurrentThreadScheduler.isScheduleRequired)
    }

    @Test("A7 each thread has its own trampoline, which runs again in order after an earlier run finished")
    func trampolinePerThreadAndReused() {
        for round in 1...3 {
            var ran: [String] = []
            var requiredInside = true
            let otherThreadRequired = LockedFlag()
            let otherThreadRan = LockedArray<String>()
            _ = CurrentThreadScheduler.instance.schedule {
                requiredInside = CurrentThreadScheduler.isScheduleRequired
                // Another thread is not inside this thread's trampoline: its schedule runs at once, in its own.
                let done = DispatchSemaphore(value: 0)
                Thread.detachNewThread {
                    otherThreadRequired.value = CurrentThreadScheduler.isScheduleRequired
                    _ = CurrentThreadScheduler.instance.schedule {
                        _ = CurrentThreadScheduler.instance.schedule { otherThreadRan.append("queued") }
                        otherThreadRan.append("outer")
                    }
                    done.signal()
                }
                done.wait()
                _ = CurrentThreadScheduler.instance.schedule { ran.append("second \(round)") }
                ran.append("first \(round)")
            }
            #expect(ran == ["first \(round)", "second \(round)"])
            #expect(!requiredInside)
            #expect(otherThreadRequired.value)
            #expect(otherThreadRan.all == ["outer", "queued"])
            #expect(CurrentThreadScheduler.isScheduleRequired)
        }
    }

    @Test("A7 a trampolined action scheduled then disposed does not run")
    func trampolineCancellation() {
        var ran: [String] = []
        _ = CurrentThreadScheduler.instance.schedule {
            let cancelled = CurrentThreadScheduler.instance.schedule { ran.append("cancelled") }
            _ = CurrentThreadScheduler.instance.schedule { ran.append("second") }
            cancelled.dispose()
            ran.append("first")
        }
        #expect(ran == ["first", "second"])
    }

    @Test("B12 a scheduled action disposed before it runs lets go of its closure after the item's lock: what the closure held may dispose the item again as it dies")
    func disposedScheduledActionDiesOutsideItsLock() {
        var log: [String] = []
        _ = CurrentThreadScheduler.instance.schedule {
            var queued: Disposable?
            // The payload's only reference is the queued closure's.
            queued = CurrentThreadScheduler.instance.schedule { [payload = DeinitPayload("payload", onDeinit: {
                queued?.dispose()
                log.append("released")
            })] in
                log.append("ran \(payload.name)")
            }
            queued?.dispose() // hangs if the closure dies holding the item's lock, since its deinit disposes again
            log.append("disposed")
        }
        #expect(log == ["released", "disposed"])
    }

    @Test("A7 serial dispatch queue scheduler runs work in order on its queue")
    func serialDispatchQueueScheduler() async throws {
        let scheduler = SerialDispatchQueueScheduler(qos: .userInitiated)
        let values = try await Observable.of(1, 2, 3).subscribe(on: scheduler).observe(on: scheduler)
            .map { $0 * 2 }.values.collect()
        #expect(values == [2, 4, 6])
        let timer = try await Observable<Int>.timer(.milliseconds(1), scheduler: scheduler).values.collect()
        #expect(timer == [0])
    }

    @Test("A7 concurrent dispatch queue scheduler: work runs on its queue, a disposed action does not run, observe(on:) through it delivers in order and never concurrently")
    func concurrentDispatchQueueScheduler() async throws {
        let queue = DispatchQueue(label: "concurrent-test", attributes: .concurrent)
        let key = DispatchSpecificKey<Bool>()
        queue.setSpecific(key: key, value: true)
        let scheduler = ConcurrentDispatchQueueScheduler(queue: queue)
        let onQueue = try await Observable.just(1).subscribe(on: scheduler).map { _ in DispatchQueue.getSpecific(key: key) == true }
            .values.collect()
        #expect(onQueue == [true])

        let ran = Counter()
        queue.suspend()
        let skipped = scheduler.schedule { ran.increment() }
        let kept = scheduler.schedule { ran.increment() }
        skipped.dispose()
        queue.resume()
        queue.sync(flags: .barrier) {} // every block submitted before has run
        #expect(ran.count == 1)
        kept.dispose()

        let timer = try await Observable<Int>.timer(.milliseconds(1), scheduler: scheduler).values.collect()
        #expect(timer == [0])
        // Disposing a timer that has not fired cancels its dispatch source, which a released source requires.
        let cancelledTimer = scheduler.scheduleRelative(.seconds(3600)) { ran.increment() }
        cancelledTimer.dispose()
        cancelledTimer.dispose() // twice: a no-op

        let overlap = OverlapDetector()
        let delivered = try await Observable.from(Array(0..<2_000)).observe(on: scheduler)
            .do(onNext: { _ in overlap.enter(); overlap.leave() })
            .values.collect()
        #expect(delivered == Array(0..<2_000))
        #expect(overlap.overlapCount == 0)
        #expect(ConcurrentDispatchQueueScheduler(qos: .utility, leeway: .milliseconds(5)).leeway == .milliseconds(5))
    }

    @Test("A2 and A4 share(replay:) with subscribers that join and leave at once on many threads: each gets the replayed element (none waits on a subject its connection let go)",
          arguments: [1, 2])
    func shareReplayUnderConcurrentJoinsAndLeaves(replay: Int) {
        let shared = Observable<Int>.create { observer in
            observer.onNext(7)
            return Disposables.create()
        }.share(replay: replay, scope: .whileConnected)
        let background = ConcurrentDispatchQueueScheduler(qos: .userInitiated)
        let received = LockedList<Int>()
        let done = DispatchSemaphore(value: 0)
        let all = Observable.zip((0..<1_000).map { _ in
            Observable.just(()).observe(on: background).flatMap { shared }.take(1)
                .do(onNext: { received.append($0) })
        })
        let subscription = all.subscribe(onCompleted: { done.signal() })
        // A generous bound, so that a regression fails instead of hanging the suite.
        #expect(done.wait(timeout: .now() + 60) == .success)
        subscription.dispose()
        #expect(received.items.count == 1_000)
        #expect(Set(received.items) == [7])
    }

    @Test("A7 the main scheduler delivers on the main thread")
    func mainScheduler() async throws {
        let onMain = try await Observable.just(1).subscribe(on: SerialDispatchQueueScheduler(qos: .default))
            .observe(on: MainScheduler.instance)
            .map { _ in MainScheduler.isOnMainQueue }
            .values.collect()
        #expect(onMain == [true])
    }

    @Test("Lock: 8 threads × 20,000 turns under one lock, some yielding the processor while holding it: every turn counted, never two at once")
    func lockUnderContention() {
        let turns = LockedValue(0)
        let detector = OverlapDetector()
        onThreads(8) { _ in
            for turn in 0..<20_000 {
                turns.withLock { turns in
                    detector.enter()
                    turns += 1
                    // A holder that loses the processor makes the others spin out and park: waking them is tested too.
                    if turn.isMultiple(of: 500) { sched_yield() }
                    detector.leave()
                }
            }
        }
        #expect(turns.current == 160_000)
        #expect(detector.overlapCount == 0)
    }
}

@Suite("A8 Swift concurrency bridges")
struct AsyncBridgeTests {
    @Test("A8 values throws CancellationError when its reading task is cancelled before the stream ends, as in RxSwift")
    func valuesThrowsOnCancellation() async {
        let reading = Task { () -> String in
            do {
                for try await _ in Observable<Int>.never().values {}
                return "finished"
            } catch is CancellationError {
                return "cancelled"
            } catch {
                return "failed"
            }
        }
        reading.cancel()
        #expect(await reading.value == "cancelled")
    }

    @Test("A8 Infallible.values, Driver.values, Single.create with async work, and asObservable(priority:) of an async sequence")
    func moreBridges() async throws {
        var infallible: [Int] = []
        for await value in Infallible.of(1, 2).values { infallible.append(value) }
        #expect(infallible == [1, 2])
        let driven = await MainActor.run { Driver.of(3, 4).values }
        var driver: [Int] = []
        for await value in driven { driver.append(value) }
        #expect(driver == [3, 4])
        #expect(try await Single.create { 5 }.value == 5)
        #expect(try await Single.create(detached: true, priority: .low) { 6 }.value == 6)
        await #expect(throws: RxError.unknown) { _ = try await Single<Int>.create { throw RxError.unknown }.value }
        let stream = AsyncStream<Int> { continuation in
            continuation.yield(7)
            continuation.finish()
        }
        #expect(try await stream.asObservable(priority: .high).values.collect() == [7])
        #expect(RxError.unknown.description == "Unknown error occurred.")
    }
    @Test func fromAsyncEmitsTheResult() async throws {
        let values = try await Observable.fromAsync { () async throws -> Int in 7 }.values.collect()
        #expect(values == [7])
        await #expect(throws: TestError.self) {
            _ = try await Observable<Int>.fromAsync { throw TestError() }.values.collect()
        }
    }

    @Test func disposingCancelsTheTask() async {
        let cancelled = AsyncSignal()
        let started = AsyncSignal()
        let subscription = Observable<Int>.fromAsync {
            await started.fire()
            do {
                try await Task.sleep(for: .seconds(60))
            } catch {
                await cancelled.fire()
            }
            return 0
        }.subscribe()
        await started.wait()
        subscription.dispose()
        await cancelled.wait()
    }

    @Test func fromAsyncSequenceEmitsEachElement() async throws {
        let stream = AsyncStream<Int> { continuation in
            for value in 1...3 { continuation.yield(value) }
            continuation.finish()
        }
        #expect(try await Observable.from(asyncSequence: stream).values.collect() == [1, 2, 3])
        let again = AsyncStream<Int> { continuation in
            continuation.yield(4)
            continuation.finish()
        }
        #expect(try await again.asObservable().values.collect() == [4])
    }

    @Test func valuesEndsWithTheStreamAndThrowsItsError() async throws {
        #expect(try await Observable.of(1, 2).values.collect() == [1, 2])
        await #expect(throws: TestError.self) {
            _ = try await Observable<Int>.concat(.just(1), .error(TestError())).values.collect()
        }
    }

    @Test func cancellingTheConsumerDisposesTheSubscription() async throws {
        let subject = PublishSubject<Int>()
        let received = AsyncSignal()
        let consumer = Task {
            for try await _ in subject.values { await received.fire() }
        }
        while !subject.hasObservers { await Task.yield() }
        subject.onNext(1)
        await received.wait()
        consumer.cancel()
        _ = await consumer.result
        while subject.hasObservers { await Task.yield() }
        #expect(!subject.hasObservers)
    }
}

extension AsyncThrowingStream {
    func collect() async throws -> [Element] {
        var all: [Element] = []
        for try await element in self { all.append(element) }
        return all
    }
}

/// A one-shot signal between tasks.
actor AsyncSignal {
    private var fired = false
    private var waiters: [CheckedContinuation<Void, Never>] = []

    func fire() {
        fired = true
        for waiter in waiters { waiter.resume() }
        waiters = []
    }

    func wait() async {
        if fired { return }
        await withCheckedContinuation { waiters.append($0) }
    }
}

final class LockedFlag: @unchecked Sendable { // `flag` is guarded by `lock`
    private let lock = NSLock()
    private var flag = false
    var value: Bool {
        get { lock.withLock { flag } }
        set { lock.withLock { flag = newValue } }
    }
}
