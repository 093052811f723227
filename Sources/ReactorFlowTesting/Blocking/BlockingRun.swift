import Foundation
import ReactorFlow

/// One call of a blocking operator: subscribes to `source` on the calling thread, waits there until the collector is
/// done or the deadline passes, then disposes the subscription.
struct BlockingRun<Element> {
    let source: Observable<Element>
    let timeout: TimeInterval?
    let limit: Int?
    let predicate: ((Element) throws -> Bool)?

    func result() -> MaterializedSequenceResult<Element> {
        let deadline = Self.deadline(after: timeout)
        let waiter = BlockingWaiter(BlockingCollector<Element>(limit: limit))
        var subscription: Disposable?
        let subscribe = {
            subscription = source.subscribe { event in
                switch event {
                case .next(let element):
                    // The predicate is the caller's code: it runs outside the waiter's lock, and only while the
                    // waiter still collects (the stream's events are serial, so nothing changes that in between
                    // but the deadline).
                    guard waiter.isCollecting else { return }
                    let passed = Result { try predicate?(element) ?? true }
                    waiter.update { $0.receive(element, passed: passed) }
                case .error(let error):
                    waiter.update { $0.end(failing: error) }
                case .completed:
                    waiter.update { $0.end(failing: nil) }
                }
            }
        }
        // As RxBlocking, the subscription runs as the thread's trampoline when none is running, so that a stream
        // scheduled on `CurrentThreadScheduler` has sent what it can by the time the wait starts. Inside a running
        // trampoline it subscribes directly: an action queued behind the caller would never run.
        if CurrentThreadScheduler.isScheduleRequired {
            _ = CurrentThreadScheduler.instance.schedule(subscribe)
        } else {
            subscribe()
        }
        waiter.wait(until: deadline)
        subscription?.dispose()
        return waiter.collected.result
    }

    /// The moment `timeout` seconds from now; `nil` for no timeout, or one too long to be a date, which waits
    /// without limit. A timeout that is not a number waits not at all, as one of zero does.
    static func deadline(after timeout: TimeInterval?) -> Date? {
        guard let timeout else { return nil }
        if timeout.isNaN { return Date() }
        return timeout < Date.distantFuture.timeIntervalSinceNow ? Date(timeIntervalSinceNow: timeout) : nil
    }
}

/// The collector of one blocking call, and the calling thread's wait for it.
///
/// On the main thread the wait turns the main run loop, which runs the main queue: a stream on
/// `MainScheduler.instance` makes progress while the test waits for it (`wakesMainRunLoop`). Where the run loop has
/// nothing to run (the main thread inside a main-queue block, which the queue cannot run again until it returns) and
/// on every other thread, it waits on the condition.
final class BlockingWaiter<Element>: @unchecked Sendable { // `collector` and `wakesMainRunLoop` are guarded by `condition`
    private let condition = NSCondition()
    private var collector: BlockingCollector<Element>
    private var wakesMainRunLoop = false

    init(_ collector: BlockingCollector<Element>) {
        self.collector = collector
    }

    var isCollecting: Bool {
        condition.lock()
        defer { condition.unlock() }
        return collector.isCollecting
    }

    /// The collector, once the wait is over.
    var collected: BlockingCollector<Element> {
        condition.lock()
        defer { condition.unlock() }
        return collector
    }

    /// Applies `change`, which returns whether it ended the wait, and wakes the waiting thread if it did.
    func update(_ change: (inout BlockingCollector<Element>) -> Bool) {
        condition.lock()
        let ended = change(&collector)
        let wakeRunLoop = ended && wakesMainRunLoop
        if ended { condition.broadcast() }
        condition.unlock()
        // An empty block is enough: the run loop returns once it has run something from the main queue. On the main
        // thread itself the run loop is already running what sent this, and returns after it.
        if wakeRunLoop && !Thread.isMainThread { DispatchQueue.main.async {} }
    }

    /// Returns once the collector is done, or at `deadline` (if any), when it ends the collector with
    /// `RxError.timeout`.
    func wait(until deadline: Date?) {
        condition.lock()
        defer { condition.unlock() }
        wakesMainRunLoop = Thread.isMainThread
        while collector.isCollecting {
            if wakesMainRunLoop {
                condition.unlock()
                let ran = RunLoop.current.run(mode: .default, before: deadline ?? .distantFuture)
                condition.lock()
                if !ran { wakesMainRunLoop = false }
            } else if let deadline {
                _ = condition.wait(until: deadline)
            } else {
                // Not `wait(until: .distantFuture)`, which overflows the time it hands the kernel.
                condition.wait()
            }
            if let deadline, collector.isCollecting, Date() >= deadline {
                _ = collector.end(failing: RxError.timeout)
            }
        }
    }
}
