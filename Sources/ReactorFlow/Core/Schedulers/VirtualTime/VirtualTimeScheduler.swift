/// A scheduler whose clock moves only when it runs its work (`start()`, `advanceTo(_:)`) or is told to
/// (`sleep(_:)`), in the units its `Converter` defines. Work runs in time order, and in scheduling order at equal
/// times. `HistoricalScheduler` is one with a `Date` clock; `ReactorFlowTesting`'s `TestScheduler` is the one for
/// tests.
///
/// Any thread may schedule, and the clock and queue are guarded by a lock. A run inside a run is not started:
/// `start()` and `advanceTo(_:)` called from work the scheduler is running do nothing.
///
/// Its queue and runs are `@inlinable`, so that a subclass in another module (`TestScheduler`) runs them specialised
/// for its clock: run as generic code, the queue's array operations look up the item type at run time, which makes a
/// search screen's keystroke on a `TestScheduler` about 60% slower.
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

    @usableFromInline
    struct Item {
        @usableFromInline let time: VirtualTime
        @usableFromInline let work: ScheduledItem
        @inlinable init(time: VirtualTime, work: ScheduledItem) {
            self.time = time
            self.work = work
        }
    }

    // Final, and without exclusivity checks: each access is a plain load or store, where a subclass's specialised code
    // would otherwise call an accessor and register the access at run time. `lock` orders every access.
    @usableFromInline final let lock = Lock.make()
    @usableFromInline final let converter: Converter
    @usableFromInline @exclusivity(unchecked) final var currentClock: VirtualTime
    /// Pending work in time order; at equal times, in the order it was scheduled.
    @usableFromInline @exclusivity(unchecked) final var queue: [Item] = []
    @usableFromInline @exclusivity(unchecked) final var running = false

    /// A scheduler whose clock starts at `initialClock`.
    public init(initialClock: VirtualTime, converter: Converter) {
        self.currentClock = initialClock
        self.converter = converter
    }

    /// The current virtual time.
    @inlinable public var clock: VirtualTime { lock.withLock { currentClock } }

    /// The current virtual time as a date.
    @inlinable public var now: RxTime { converter.convertFromVirtualTime(clock) }

    /// Queues `action` for the current virtual time: it runs on the next `start()` or `advanceTo(_:)`.
    public func schedule(_ action: @escaping () -> Void) -> Disposable {
        scheduleRelative(.nanoseconds(0), action: action)
    }

    /// Queues `action` for `dueTime` from now, converted to virtual time and passed through
    /// `adjustScheduledTime(_:)`. Open so that a subclass may convert `dueTime` more exactly than through a date
    /// (`TestScheduler` counts whole nanoseconds).
    open func scheduleRelative(_ dueTime: RxTimeInterval, action: @escaping () -> Void) -> Disposable {
        guard dueTime != .never else { return Disposables.create() }
        let due = converter.convertToVirtualTime(now.addingTimeInterval(dueTime.timeInterval))
        return scheduleAbsolute(at: adjustScheduledTime(due), action)
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
        Disposables.scheduling(state, action) { scheduleAbsolute(at: time, $0) }
    }

    /// The time work scheduled relative to now actually runs at; a subclass may move it (RxTest's processing delay
    /// is such a move). By default, `time` itself.
    open func adjustScheduledTime(_ time: VirtualTime) -> VirtualTime { time }

    /// Queues `action` for virtual time `time` as it is, after the work already queued for that time.
    @inlinable
    package func scheduleAbsolute(at time: VirtualTime, _ action: @escaping () -> Void) -> Disposable {
        let work = ScheduledItem.make(action)
        lock.withLock {
            let index = queue.firstIndex { converter.compareVirtualTime($0.time, time) == .greaterThan } ?? queue.endIndex
            queue.insert(Item(time: time, work: work), at: index)
        }
        return work
    }

    /// Runs everything scheduled, in time order, moving the clock to each item's time (never backwards), until
    /// nothing is left or `stop()` is called. Work that keeps scheduling more (an interval nobody disposes) keeps it
    /// running: use `advanceTo(_:)` for those. Open so that a subclass may bound the run (`TestScheduler` stops a
    /// runaway one and reports it where `start()` was called: `fileID`, `filePath`, `line` and `column` are that place,
    /// which this class does not use).
    open func start(fileID: String = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column) {
        _ = run(upTo: nil, maxSteps: nil)
    }

    /// Runs, in time order, everything due up to and including `virtualTime`, then sets the clock to `virtualTime`
    /// (as RxSwift does, even if that is earlier than the clock).
    @inlinable
    public func advanceTo(_ virtualTime: VirtualTime) {
        _ = run(upTo: virtualTime, maxSteps: nil, clockAfterwards: { _ in virtualTime })
    }

    /// Runs the pending work due by `limit` (all of it, without one) in time order, moving the clock to each item's
    /// time, until none is left, `stop()` is called, or `maxSteps` items ran; then sets the clock to what
    /// `clockAfterwards` makes of it. Returns `false` only when it stopped with due work left after `maxSteps` items.
    /// A run inside a run does nothing (and returns `true`).
    @inlinable
    package func run(upTo limit: VirtualTime?, maxSteps: Int?,
                     clockAfterwards: ((VirtualTime) -> VirtualTime)? = nil) -> Bool {
        guard enterRun() else { return true }
        var steps = 0
        var finished = true
        while true {
            if let maxSteps, steps == maxSteps {
                finished = lock.withLock { firstDueHoldingLock(upTo: limit) == nil }
                break
            }
            guard let work = next(upTo: limit) else { break }
            steps += 1
            work.run()
        }
        lock.withLock {
            if let clockAfterwards { currentClock = clockAfterwards(currentClock) }
            running = false
        }
        return finished
    }

    /// Moves the clock forward by `virtualInterval` without running anything. An interval that would move it back is
    /// ignored.
    @inlinable
    public func sleep(_ virtualInterval: VirtualTimeInterval) {
        lock.withLock {
            let target = converter.offsetVirtualTime(currentClock, offset: virtualInterval)
            if converter.compareVirtualTime(target, currentClock) != .lessThan { currentClock = target }
        }
    }

    /// Ends a `start()` or `advanceTo(_:)` in progress once the item that is running returns.
    @inlinable
    public func stop() {
        lock.withLock { running = false }
    }

    @inlinable
    func enterRun() -> Bool {
        lock.withLock {
            if running { return false }
            running = true
            return true
        }
    }

    /// The number of items scheduled and neither run nor cancelled.
    @inlinable
    package var pendingCount: Int { lock.withLock { queue.count { $0.work.isPending } } }

    /// The next pending item due by `limit` (any, without one), with the clock moved to its time; `nil` when there is
    /// none or the run was stopped.
    @inlinable
    func next(upTo limit: VirtualTime?) -> ScheduledItem? {
        lock.withLock {
            guard let first = firstDueHoldingLock(upTo: limit) else { return nil }
            queue.removeFirst()
            if converter.compareVirtualTime(first.time, currentClock) == .greaterThan { currentClock = first.time }
            return first.work
        }
    }

    /// Called holding `lock`: drops the cancelled items at the head of the queue, and returns the first if it is due
    /// by `limit` and the run goes on.
    @inlinable
    func firstDueHoldingLock(upTo limit: VirtualTime?) -> Item? {
        while running, let first = queue.first {
            guard first.work.isPending else {
                queue.removeFirst()
                continue
            }
            if let limit, converter.compareVirtualTime(first.time, limit) == .greaterThan { return nil }
            return first
        }
        return nil
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
