/// The machinery shared by every subject and relay.
///
/// - Events sent from any thread, or from inside an observer (reentrantly), are queued and delivered by one thread
///   at a time, in the order they were sent, to every observer: an observer never sees a later event first.
/// - The replay buffer is updated when an event is sent, so a subscriber that joins while events are still queued
///   gets them through its replay and is skipped when they are delivered (each subscription remembers the sequence
///   number it joined at).
/// - Each subscription serializes its own deliveries, so a replay on the subscribing thread and a delivery from the
///   draining thread can never overlap.
/// - A subscription may have an element handler beside its observer (`subscribe(onNext:)`, a chain that starts
///   with `map`): elements that can go out at once go to it as they are, saving the copy that taking them out of an
///   event costs; anything that must wait is queued as an event for the observer, so both keep one order. The
///   subject's own senders (`onNext`, `accept`) hand the element in as it is too (`onNext(_:)`).
@usableFromInline
final class SubjectCore<Element>: @unchecked Sendable { // every field is guarded by `lock`
    @usableFromInline let lock: Lock
    @usableFromInline @exclusivity(unchecked) var subscriptions: [AnySubjectSubscription] = []
    /// What a subject seldom needs, made on first need so that a subject does not carry it (see `Overflow`).
    @usableFromInline @exclusivity(unchecked) var overflow: Overflow?
    @usableFromInline @exclusivity(unchecked) var lastSequence: UInt64 = 0
    // The flags, the options and the replay capacity are declared together so that they share one word.
    @usableFromInline @exclusivity(unchecked) var draining = false
    @usableFromInline @exclusivity(unchecked) var stopped = false
    /// Whether a delivery is walking `subscriptions` without a reference of its own (see
    /// `walkDeliveringKeepingLock`): until it is done, the list it walks must not change in place or die (see
    /// `retireWalkedListKeepingLock`).
    @usableFromInline @exclusivity(unchecked) var walking = false
    @usableFromInline let options: SubjectOptions
    @usableFromInline let replayCapacity: Int32
    /// The error that ended the subject, if it ended with one: one word, where an `Event<Element>?` would be as
    /// large as an element.
    @usableFromInline @exclusivity(unchecked) var stopError: (any Error)?
    /// The replay buffer (see `ReplayQueue`): a queue when more than one element is replayed, and otherwise the
    /// latest element, last of the fields.
    @usableFromInline let replayQueue: ReplayQueue<Element>?
    @usableFromInline @exclusivity(unchecked) var latest: Element?

    /// - Parameters:
    ///   - bufferSize: how many latest elements a new subscriber receives (`Int.max` for all).
    ///   - ignoresStopEvents: relays never end, so stop events sent to them are dropped.
    ///   - replaysAfterStop: whether a subscriber arriving after the end still gets the buffer before the terminal
    ///     event (replay subjects do; behavior subjects, as in RxSwift, send only the terminal event).
    ///   - lock: may be shared with other objects that, like this one, never call out while holding it (a reactor's
    ///     subjects share their pipeline's lock, which saves a heap block each).
    @inlinable
    init(bufferSize: Int, ignoresStopEvents: Bool = false, replaysAfterStop: Bool = true, lock: Lock = Lock.make()) {
        self.lock = lock
        replayCapacity = Int32(clamping: bufferSize)
        replayQueue = ReplayQueue.make(capacity: bufferSize)
        var options: SubjectOptions = []
        if ignoresStopEvents { options.insert(.ignoresStopEvents) }
        if replaysAfterStop { options.insert(.replaysAfterStop) }
        self.options = options
    }

    @inlinable var ignoresStopEvents: Bool { options.contains(.ignoresStopEvents) }
    @inlinable var replaysAfterStop: Bool { options.contains(.replaysAfterStop) }

    /// The terminal event, once the subject has ended.
    @inlinable
    var stopEvent: Event<Element>? {
        get { stopped ? (stopError.map { .error($0) } ?? .completed) : nil }
        set {
            stopped = newValue != nil
            stopError = newValue?.error
        }
    }

    /// What a subject seldom needs, boxed.
    @usableFromInline
    final class Overflow {
        /// Events sent while another thread (or an observer, reentrantly) is delivering.
        @usableFromInline var waitingEvents = FIFO<(sequence: UInt64, event: Event<Element>)>()
        /// Subscriber lists replaced while a delivery walked them, kept for it until its walk ends.
        @usableFromInline var retiredLists: [[AnySubjectSubscription]] = []
        @usableFromInline init() {}
    }

    /// The overflow box, made if needed.
    @inlinable
    var madeOverflow: Overflow { madeIfNeeded(&overflow) { Overflow() } }

    var hasObservers: Bool { lock.withLock { !subscriptions.isEmpty } }
    var stoppedWith: Event<Element>? { lock.withLock { stopEvent } }
    @inlinable var latestReplayed: Element? { lock.withLock { lastReplayed } }
}
