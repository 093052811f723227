/// The latest elements a subject replays: none, one (behavior subjects, relays, a reactor's state — kept inline,
/// with no queue to churn per element), or up to `capacity` in a queue, boxed so that the common subjects do not
/// carry its two words. The capacity is the subject's (`SubjectCore.replayCapacity`), kept there in spare bytes.
@usableFromInline
struct ReplayBuffer<Element> {
    @usableFromInline
    final class Queue {
        @usableFromInline var elements = FIFO<Element>()
        @usableFromInline init() {}

        /// `ReplayBuffer.append` for a buffer of more than one element. Compiled once, unspecialised: a subject made
        /// for each reactor type (its action subject, its state relay) keeps one element at most, and inlined, the
        /// queue's code would be made for each of them all the same.
        @usableFromInline @inline(never) @_semantics("optimize.sil.specialize.generic.never")
        func append(_ element: Element, capacity: Int32) -> Element? {
            elements.append(element)
            return elements.count > Int(capacity) ? elements.popFirst() : nil
        }

        /// The latest element; compiled once, as `append` is.
        @usableFromInline @inline(never) @_semantics("optimize.sil.specialize.generic.never")
        var last: Element? { elements.elements.last }
    }

    @usableFromInline var latest: Element?
    @usableFromInline let queue: Queue?

    @inlinable
    init(capacity: Int) {
        queue = capacity > 1 ? Queue() : nil
    }

    /// Returns the element that left the buffer, for the caller to release after its lock. `element` is taken, not
    /// copied: a caller that keeps the element too makes the copy itself, where the compiler may make it with a
    /// retain per field instead of through the fields' value witnesses (see `publishFromSoleSenderKeepingLock`).
    @inlinable
    mutating func append(_ element: consuming Element, capacity: Int32) -> Element? {
        switch capacity {
        case 0: return nil
        case 1:
            return exchange(&latest, with: element)
        default:
            return queue.unsafelyUnwrapped.append(element, capacity: capacity)
        }
    }

    @inlinable
    func last(capacity: Int32) -> Element? {
        capacity <= 1 ? latest : queue.unsafelyUnwrapped.last
    }

    @inlinable
    func forEach(_ body: (Element) -> Void) {
        if let queue {
            for element in queue.elements.elements { body(element) }
        } else if let latest {
            body(latest)
        }
    }
}
