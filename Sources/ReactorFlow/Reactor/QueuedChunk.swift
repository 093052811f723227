/// A run of work items waiting in a reactor's loop, in arrival order.
///
/// The queue is a list of chunks so that the loop that empties it is compiled once (see `ReactorLoopCore`): it walks
/// the chunks and hands each item's address to the loop's entry point (`ReactorLoop.runItemEntry`), which is
/// specialised for the reactor type and moves the item out. Items are never moved while they wait: a full chunk is
/// followed by another, not grown. A chunk that ran is kept for the next items (up to `ReactorLoopCore.spareLimit`),
/// so that under two busy senders the queue allocates almost nothing.
///
/// A chunk knows its items' size, not their type: only the reactor type's own code writes and reads them, and every
/// item is moved out before its chunk dies (run, or dropped by the same entry point).
///
/// Only queued work is here: work that finds the loop idle, the common case, runs at once.
@usableFromInline
class QueuedChunk { // guarded by the loop's lock while queued, then by the running role, like the loop's queue
    /// How many items a chunk of the reactor's own work holds.
    @usableFromInline static var capacity: Int { 32 }

    /// The items' memory; `nil` for a `QueuedSpecial`, which is one item of its own.
    @usableFromInline let storage: UnsafeMutableRawPointer?
    /// The distance between two items in `storage`.
    @usableFromInline let stride: Int
    /// Slots `taken..<count` hold items; the loop moves them out in order.
    @usableFromInline @exclusivity(unchecked) var count = 0
    @usableFromInline @exclusivity(unchecked) var taken = 0
    /// The next chunk of the loop's list (see `ReactorLoopCore.chunks`).
    @usableFromInline @exclusivity(unchecked) var next: QueuedChunk?

    /// A chunk for `capacity` items of the given size and alignment.
    @usableFromInline
    init(stride: Int, alignment: Int) {
        storage = UnsafeMutableRawPointer.allocate(byteCount: Swift.max(stride, 1) * Self.capacity, alignment: alignment)
        self.stride = stride
    }

    @usableFromInline
    init() {
        storage = nil
        stride = 0
    }

    /// Whether this chunk holds the reactor's own work, which senders append to and the loop keeps once it ran.
    @inlinable var holdsItems: Bool { storage != nil }

    deinit {
        storage?.deallocate()
    }
}

/// One item of work that comes from code compiled once (a mutation stream's end, a lane's hand-off): queued alone,
/// with what it does, so that the reactor type's own chunks only ever hold work written by its specialised code.
@usableFromInline
final class QueuedSpecial: QueuedChunk {
    /// Does the work in the loop's turn, for the reactor the running thread keeps alive; without one, drops it
    /// (a stream's end is still counted, so that nobody waits for that stream forever).
    @usableFromInline let body: (_ loop: ReactorLoopCore, _ reactor: Unmanaged<AnyObject>?) -> Void

    @usableFromInline
    init(_ body: @escaping (_ loop: ReactorLoopCore, _ reactor: Unmanaged<AnyObject>?) -> Void) {
        self.body = body
        super.init()
        count = 1
    }
}
