/// The part of a reactor's loop that does not depend on the reactor's types: who holds the running role, the work
/// waiting for it, and the loop that empties that queue. Compiled once, inside ReactorFlow, and shared by every
/// reactor type; a queued item reaches its reactor's own code (`mutate`, `reduce`, the state's publish) through
/// `ReactorLoop.runItemEntry`, the one entry point made for the reactor type (see `RunItem` and `QueuedChunk`).
///
/// `ReactorLoop` adds the typed part: the state, the stage, the relay, and the direct path that runs an action or a
/// mutation without queuing it when the loop is idle, the common case.
@usableFromInline
class ReactorLoopCore: EffectTracker, @unchecked Sendable { // every field but `reducingInline` is guarded by `lock` (see `ReactorLoop`); `reducingInline` belongs to the thread in the inline window
    /// Moves the item at `item` out and runs it in the loop's turn, for `reactor`, which the running thread keeps
    /// alive (so it is passed unretained: retaining a reactor that is referred to weakly takes the slow path).
    /// Without a reactor, drops it: a stream's end is still counted, so that nobody waits for that stream forever.
    /// The entry point from this compiled-once loop into the reactor type's code (`ReactorLoop.runItemEntry`): passed
    /// in by the typed caller, in whose specialised code it is a constant, rather than stored, which would cost every
    /// reactor two words.
    @usableFromInline typealias RunItem = (_ item: UnsafeMutableRawPointer, _ loop: ReactorLoopCore, _ reactor: Unmanaged<AnyObject>?) -> Void
    /// The queue's chunks, linked through `next` (see `QueuedChunk`): from `chunks` to `lastQueued`, those that hold
    /// queued work; after `lastQueued`, empty ones that ran before, kept for senders to fill again (`spareCount` of
    /// them). One list rather than two saves a word in every reactor.
    @usableFromInline @exclusivity(unchecked) var chunks: QueuedChunk?
    /// The last chunk that holds queued work, the one senders fill; `nil` when nothing is queued. Unretained: the
    /// list from `chunks` holds it. Kept as `Unmanaged` rather than `unowned(unsafe)`, which is retained and released
    /// whenever it is read, even only to be tested for `nil` (`isQueueEmptyHoldingLock`, once per mutation).
    @usableFromInline @exclusivity(unchecked) var lastQueuedChunk: Unmanaged<QueuedChunk>?
    var lastQueued: QueuedChunk? {
        get { lastQueuedChunk?.takeUnretainedValue() }
        set { lastQueuedChunk = newValue.map { Unmanaged.passUnretained($0) } }
    }
    /// Called holding `lock`: whether nothing is queued.
    @inlinable @inline(__always) var isQueueEmptyHoldingLock: Bool { lastQueuedChunk == nil }
    @usableFromInline @exclusivity(unchecked) var running = false
    @usableFromInline @exclusivity(unchecked) var isDisposed = false
    /// Whether the action subject hands actions straight to this loop (`transform(action:)` and
    /// `transform(mutation:)` are the identity) instead of delivering them to its subscribers.
    @usableFromInline @exclusivity(unchecked) var takesActionsDirectly = false
    /// Whether reduced states go to the relay rather than to the subject behind `transform(state:)`. False until
    /// `configure` says otherwise.
    @usableFromInline @exclusivity(unchecked) var statesGoToRelay = false
    /// Whether the running thread is reducing a mutation it took inline (see `receiveMutation`): a mutation it
    /// sends meanwhile is reentrant, and waits in the queue.
    @usableFromInline @exclusivity(unchecked) var reducingInline = false
    /// Whether a mutation was queued during this inline window: later ones queue behind it, so that the order
    /// of each stream's mutations is kept.
    @usableFromInline @exclusivity(unchecked) var inlineBlocked = false
    /// Whether the thread that holds the running role is subscribing to a mutation stream (`followInline`): the
    /// stream's synchronous mutations are then reduced inline on that thread, which `InlineWindow` names. A flag
    /// here and the thread's identity in thread-local storage, rather than a thread field, keep the loop one word
    /// smaller: every reactor carries it.
    @usableFromInline @exclusivity(unchecked) var inlineOpen = false
    /// How many empty chunks follow `lastQueued`; declared with the flags, whose word it shares.
    @usableFromInline @exclusivity(unchecked) var spareCount: UInt8 = 0
    /// The reactor, held weakly: it owns this loop through its storage. Typed as `ReactorLoop.reactor`.
    @usableFromInline @exclusivity(unchecked) weak var reactorObject: AnyObject?

    /// Called first while the pipeline is wired, before the reactor's transforms: what they subscribe to may need
    /// the reactor (see `ReactorPipeline.wire`).
    @usableFromInline
    func attach(reactorObject reactor: AnyObject) {
        lock.withLock { reactorObject = reactor }
    }

    /// At most this many empty chunks are kept, so that a burst of queued work does not stay allocated.
    @usableFromInline static var spareLimit: UInt8 { 2 }

    @usableFromInline
    override init(lock: Lock) {
        super.init(lock: lock)
    }

    /// A running turn counts as busy for `waitUntilIdle()` and `send(_:)`: it may hold queued actions whose streams
    /// have not started yet.
    ///
    /// The turn's end wakes the idle waiters. So that the direct path's `reduce`, which ends a turn when nothing is
    /// queued, carries no check for them (it runs for every action), a turn with waiters always has something
    /// queued, and ends in `runQueued`, which checks (see `waitForTurnEndHoldingLock`).
    @usableFromInline
    override var isBusyHoldingLock: Bool { running }

    /// Called holding `lock` while the turn runs and idle waiters wait for its end: queues an item that does
    /// nothing, unless something is queued already, so that the turn ends in `runQueued`.
    @usableFromInline
    override func waitForTurnEndHoldingLock() {
        guard isQueueEmptyHoldingLock else { return }
        let item = QueuedSpecial { _, _ in }
        insertAfterQueuedHoldingLock(item)
        lastQueued = item
    }

    /// Called holding `lock` by a sender queuing one of the reactor's own items, of the given size and alignment:
    /// the address the caller writes it to, in the last chunk if it has room, else in a kept or a new one.
    @usableFromInline
    func slotHoldingLock(stride: Int, alignment: Int) -> UnsafeMutableRawPointer {
        let chunk: QueuedChunk
        if let last = lastQueued, last.holdsItems, last.count < QueuedChunk.capacity {
            chunk = last
        } else if let kept = isQueueEmptyHoldingLock ? chunks : lastQueued.unsafelyUnwrapped.next {
            // An empty chunk kept after the queued ones: it becomes the last queued.
            chunk = kept
            spareCount &-= 1
            lastQueued = kept
        } else {
            chunk = QueuedChunk(stride: stride, alignment: alignment)
            insertAfterQueuedHoldingLock(chunk)
            lastQueued = chunk
        }
        let index = chunk.count
        chunk.count = index + 1
        return chunk.storage.unsafelyUnwrapped + index * chunk.stride
    }

    /// Called holding `lock`: links `chunk` right after the queued chunks, before the empty ones.
    @usableFromInline
    func insertAfterQueuedHoldingLock(_ chunk: QueuedChunk) {
        if let last = lastQueued {
            chunk.next = last.next
            last.next = chunk
        } else {
            chunk.next = chunks
            chunks = chunk
        }
    }

    /// Runs `item` now, or queues it if another item is running; drops it if the loop was disposed. For work that
    /// comes from code compiled once (see `QueuedSpecial`).
    @usableFromInline
    func submit(_ item: QueuedSpecial, runItem: RunItem) {
        lock.lock()
        if isDisposed {
            lock.unlock()
            return item.body(self, nil)
        }
        if running {
            insertAfterQueuedHoldingLock(item)
            lastQueued = item
            return lock.unlock()
        }
        running = true
        lock.unlock()
        guard let reactor = reactorObject else {
            item.body(self, nil)
            return dropBecauseReactorDied(runItem: runItem)
        }
        withExtendedLifetime(reactor) {
            item.body(self, Unmanaged.passUnretained(reactor))
            runQueued(reactor: reactor, runItem: runItem)
        }
    }

    /// Called by the thread holding the running role once its first item ran, with the reactor it holds alive:
    /// runs what arrived meanwhile, then gives up the role.
    ///
    /// The queue is taken a batch at a time: one lock round trip per batch rather than per item, which matters when
    /// other threads keep sending (they contend for the same lock). Work that arrives while a batch runs waits for
    /// the next one, so the order stays the arrival order. The chunks that ran are kept for the senders in the same
    /// critical section; so a queued item never ends the turn inside its own work (see `ReactorLoop.reduce`): the
    /// turn ends here.
    @usableFromInline
    func runQueued(reactor: AnyObject, runItem: RunItem) {
        let held = Unmanaged.passUnretained(reactor)
        var ran: QueuedChunk?
        while true {
            lock.lock()
            let released = ran.flatMap(keepHoldingLock)
            ran = nil
            guard let last = lastQueued, let batch = chunks else {
                running = false
                let waitersToWake = !idleWaiters.isEmpty
                lock.unlock()
                Self.release(released)
                if waitersToWake { wakeIdleWaitersIfIdle() }
                return
            }
            // The queued chunks leave the list; the empty ones after them stay.
            chunks = exchange(&last.next, with: nil)
            lastQueued = nil
            lock.unlock()
            Self.release(released)
            // A chunk taken from the queue is no longer reachable by senders, so its `count` stays as it is.
            var chunk: QueuedChunk? = batch
            while let current = chunk {
                run(current, reactor: held, runItem: runItem)
                chunk = current.next
            }
            ran = batch
        }
    }

    /// Runs, or with no reactor drops, the items of `chunk` that were not taken yet.
    @usableFromInline
    func run(_ chunk: QueuedChunk, reactor: Unmanaged<AnyObject>?, runItem: RunItem) {
        guard chunk.holdsItems else {
            guard chunk.taken == 0 else { return }
            chunk.taken = 1
            return unsafeDowncast(chunk, to: QueuedSpecial.self).body(self, reactor)
        }
        let storage = chunk.storage.unsafelyUnwrapped
        while chunk.taken < chunk.count {
            let index = chunk.taken
            chunk.taken = index + 1
            runItem(storage + index * chunk.stride, self, reactor)
        }
    }

    /// Called holding `lock` with a list of chunks that ran: keeps those that hold the reactor's own work, reset,
    /// after the queued ones, up to `spareLimit`, and returns the rest, for the caller to release after the lock.
    @usableFromInline
    func keepHoldingLock(_ list: QueuedChunk) -> QueuedChunk? {
        var released: QueuedChunk?
        var next: QueuedChunk? = list
        while let chunk = next {
            next = exchange(&chunk.next, with: nil)
            if chunk.holdsItems && spareCount < Self.spareLimit {
                chunk.count = 0
                chunk.taken = 0
                insertAfterQueuedHoldingLock(chunk)
                spareCount &+= 1
            } else {
                chunk.next = released
                released = chunk
            }
        }
        return released
    }

    /// Lets go of a list of chunks one at a time: released from its head, a long list would free each chunk inside
    /// the previous one's deinitialisation, as deep as the list is long.
    @usableFromInline
    static func release(_ list: QueuedChunk?) {
        var next = list
        while let chunk = next {
            next = exchange(&chunk.next, with: nil)
        }
    }

    /// Called by the thread that took the running role and found the reactor gone: drops what is queued, and gives
    /// the role up.
    @usableFromInline
    func dropBecauseReactorDied(runItem: RunItem) {
        let dropped = lock.withLock { () -> QueuedChunk? in
            running = false
            return takeAllChunksHoldingLock()
        }
        drop(dropped, runItem: runItem)
        wakeIdleWaitersIfIdle()
    }

    /// Called holding `lock`: takes every chunk off the list, the queued ones and the empty ones kept after them.
    @usableFromInline
    func takeAllChunksHoldingLock() -> QueuedChunk? {
        lastQueued = nil
        spareCount = 0
        return exchange(&chunks, with: nil)
    }

    /// Drops the items of a list of chunks taken off the queue (empty ones have none), and releases the chunks.
    @usableFromInline
    func drop(_ list: QueuedChunk?, runItem: RunItem) {
        var next = list
        while let chunk = next {
            run(chunk, reactor: nil, runItem: runItem)
            next = chunk.next
        }
        Self.release(list)
    }

    /// Drops queued work; work sent later is ignored (the reactor is gone).
    @usableFromInline
    func disposeQueue(runItem: RunItem) {
        let dropped = lock.withLock { () -> QueuedChunk? in
            isDisposed = true
            takesActionsDirectly = false
            return takeAllChunksHoldingLock()
        }
        drop(dropped, runItem: runItem)
    }

    /// Subscribes to a mutation stream inside `subscribe`, on the thread that holds the running role: what the
    /// stream emits synchronously meanwhile is reduced inline (see `ReactorLoop.receiveMutation`).
    @usableFromInline
    func followInline(_ subscribe: () -> Void) {
        let saved = lock.withLock { () -> (Bool, Bool) in
            defer {
                inlineOpen = true
                inlineBlocked = false
            }
            return (inlineOpen, inlineBlocked)
        }
        InlineWindow.withOpen(for: self, subscribe)
        lock.withLock {
            inlineOpen = saved.0
            inlineBlocked = saved.1
        }
    }

    /// Called holding `lock` with a mutation from a stream: whether it is reduced inline now (rule B5), with the
    /// lock given up, or goes through the loop's normal start-or-queue path, with the lock still held.
    /// A mutation that must keep its place behind a reentrant one comes back as `.queueBehind`: the caller queues it
    /// (the loop is running, so it is not disposed).
    @usableFromInline
    func admitMutationHoldingLock() -> MutationAdmission {
        guard inlineOpen, running, InlineWindow.isOpen(for: self) else { return .startOrQueue }
        if reducingInline || inlineBlocked {
            // Reentrant (sent from `reduce` or a state subscriber), or behind such a one: it keeps its place. Work
            // that other threads queued meanwhile does not hold inline mutations back: it has no order with them.
            inlineBlocked = true
            return .queueBehind
        }
        reducingInline = true
        lock.unlock()
        return .reduceInline
    }

    /// What `admitMutationHoldingLock` decided.
    @usableFromInline
    enum MutationAdmission {
        /// Not in the inline window: start the mutation if the loop is idle, or queue it (the lock is still held).
        case startOrQueue
        /// Queue it behind the reentrant mutation before it (the lock is still held).
        case queueBehind
        /// Reduce it now, on this thread, then clear `reducingInline` (the lock was given up).
        case reduceInline
    }
}
