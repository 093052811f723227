/// A scheduler whose clock moves only when it runs its work (`start()`, `advanceTo(_:)`) or is told to
/// (`sleep(_:)`), in the units its `Converter` defines. Work runs in time order, and in scheduling order at equal
/// times. `HistoricalScheduler` is one with a `Date` clock; `ReactorFlowTesting`'s `TestScheduler` is the one for
/// tests.
///
/// Any thread may schedule, and the clock and queue are guarded by a lock. A run inside a run is not started:
/// `start()` and `advanceTo(_:)` called from work the scheduler is running do nothing.
///
/// ```swift
/// let scheduler = HistoricalScheduler()
/// let ticks = Observable<Int>.interval(.seconds(60), scheduler: scheduler).take(3)
/// ticks.subscribe(onNext: { print($0, scheduler.now) })
/// scheduler.start() // 0, 1 and 2, a virtual minute apart, at once
/// ```
open class VirtualTimeScheduler<Converter: VirtualTimeConverterType>: SchedulerType {
    /// A point in this scheduler's time.
    public typealias VirtualTime = Converter.VirtualTimeUnit
    /// A span of this scheduler's time.
    public typealias VirtualTimeInterval = Converter.VirtualTimeIntervalUnit

    private struct Item {
        let time: VirtualTime
        let work: ScheduledItem
    }

    private let lock = Lock.make()
    private let converter: Converter
    private var currentClock: VirtualTime
    /// Pending work in time order; at equal times, in the order it was scheduled.
    private var queue: [Item] = []
    private var running = false

    /// A scheduler whose clock starts at `initialClock`.
    public init(initialClock: VirtualTime, converter: Converter) {
        self.currentClock = initialClock
        self.converter = converter
    }

    /// The current virtual time.
    public var clock: VirtualTime { lock.withLock { currentClock } }

    /// The current virtual time as a date.
    public var now: RxTime { converter.convertFromVirtualTime(clock) }

    /// Queues `action` for the current virtual time: it runs on the next `start()` or `advanceTo(_:)`.
    public func schedule(_ action: @escaping () -> Void) -> Disposable {
        scheduleRelative(.nanoseconds(0), action: action)
    }

    /// Queues `action` for `dueTime` from now, converted to virtual time and passed through
    /// `adjustScheduledTime(_:)`.
    public func scheduleRelative(_ dueTime: RxTimeInterval, action: @escaping () -> Void) -> Disposable {
        guard dueTime != .never else { return Disposables.create() }
        let due = converter.convertToVirtualTime(now.addingTimeInterval(dueTime.timeInterval))
        return enqueue(at: adjustScheduledTime(due), action)
    }

    /// Runs `action(state)` at `dueTime` of virtual time from the current clock. Disposing the result before then
    /// cancels it; afterwards it disposes what the action returned.
    public func scheduleRelativeVirtual<StateType>(_ state: StateType, dueTime: VirtualTimeInterval,
                                                   action: @escaping (StateType) -> Disposable) -> Disposable {
        scheduleAbsoluteVirtual(state, time: converter.offsetVirtualTime(clock, offset: dueTime), action: action)
    }

    /// Runs `action(state)` at virtual time `time` (on the next run, if `time` has passed). Disposing the result
    /// before then cancels it; afterwards it disposes what the action returned.
    public func scheduleAbsoluteVirtual<StateType>(_ state: StateType, time: VirtualTime,
                                                   action: @escaping (StateType) -> Disposable) -> Disposable {
        Disposables.scheduling(state, action) { enqueue(at: time, $0) }
    }

    /// The time work scheduled relative to now actually runs at; a subclass may move it (RxTest's processing delay
    /// is such a move). By default, `time` itself.
    open func adjustScheduledTime(_ time: VirtualTime) -> VirtualTime { time }

    private func enqueue(at time: VirtualTime, _ action: @escaping () -> Void) -> Disposable {
        let work = ScheduledItem.make(action)
        lock.withLock {
            let index = queue.firstIndex { converter.compareVirtualTime($0.time, time) == .greaterThan } ?? queue.endIndex
            queue.insert(Item(time: time, work: work), at: index)
        }
        return work
    }

    /// Runs everything scheduled, in time order, moving the clock to each item's time (never backwards), until
    /// nothing is left or `stop()` is called. Work that keeps scheduling more (an interval nobody disposes) keeps it
    /// running: use `advanceTo(_:)` for those.
    public func start() {
        guard enterRun() else { return }
        while let work = next(upTo: nil) {
            work.run()
        }
        lock.withLock { running = false }
    }

    /// Runs, in time order, everything due up to and including `virtualTime`, then sets the clock to `virtualTime`
    /// (as RxSwift does, even if that is earlier than the clock).
    public func advanceTo(_ virtualTime: VirtualTime) {
        guard enterRun() else { return }
        while let work = next(upTo: virtualTime) {
            work.run()
        }
        lock.withLock {
            currentClock = virtualTime
            running = false
        }
    }

    /// Moves the clock forward by `virtualInterval` without running anything. An interval that would move it back is
    /// ignored.
    public func sleep(_ virtualInterval: VirtualTimeInterval) {
        lock.withLock {
            let target = converter.offsetVirtualTime(currentClock, offset: virtualInterval)
            if converter.compareVirtualTime(target, currentClock) != .lessThan { currentClock = target }
        }
    }

    /// Ends a `start()` or `advanceTo(_:)` in progress once the item that is running returns.
    public func stop() {
        lock.withLock { running = false }
    }

    private func enterRun() -> Bool {
        lock.withLock {
            if running { return false }
            running = true
            return true
        }
    }

    /// The next pending item due by `limit` (any, without one), with the clock moved to its time; `nil` when there is
    /// none or the run was stopped.
    private func next(upTo limit: VirtualTime?) -> ScheduledItem? {
        lock.withLock {
            while running, let first = queue.first {
                if let limit, converter.compareVirtualTime(first.time, limit) == .greaterThan { return nil }
                queue.removeFirst()
                guard first.work.isPending else { continue }
                if converter.compareVirtualTime(first.time, currentClock) == .greaterThan { currentClock = first.time }
                return first.work
            }
            return nil
        }
    }
}

extension VirtualTimeScheduler: CustomDebugStringConvertible {
    /// The clock and the times of the pending work.
    public var debugDescription: String {
        lock.withLock {
            let pending = queue.filter { $0.work.isPending }.map { "\($0.time)" }
            return "VirtualTimeScheduler(clock: \(currentClock), pending: [\(pending.joined(separator: ", "))])"
        }
    }
}
