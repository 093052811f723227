/// The latest elements a subject replays: none, one (behavior subjects, relays, a reactor's state — kept inline in
/// `SubjectCore.latest`, with no queue to churn per element), or up to `capacity` in a `ReplayQueue`, boxed so that
/// the common subjects do not carry its two words. The capacity is the subject's (`SubjectCore.replayCapacity`),
/// kept there in spare bytes.
///
/// Two fields of the subject rather than one struct: the queue comes before the element, at an offset that does not
/// depend on the element's type, and the element is the class's last field, whose offset code compiled once reads
/// from the class's metadata. A struct of both made code compiled once (a subject's initialiser, which each reactor
/// runs twice) look up the struct's layout at run time to find its second field.
@usableFromInline
final class ReplayQueue<Element> {
    @usableFromInline var elements = FIFO<Element>()
    @usableFromInline init() {}

    /// `SubjectCore.appendToReplay` for a buffer of more than one element. Compiled once, unspecialised: a subject
    /// made for each reactor type (its action subject, its state relay) keeps one element at most, and inlined, the
    /// queue's code would be made for each of them all the same.
    @usableFromInline @inline(never) @_semantics("optimize.sil.specialize.generic.never")
    func append(_ element: Element, capacity: Int32) -> Element? {
        elements.append(element)
        return elements.count > Int(capacity) ? elements.popFirst() : nil
    }

    /// The latest element; compiled once, as `append` is.
    @usableFromInline @inline(never) @_semantics("optimize.sil.specialize.generic.never")
    var last: Element? { elements.elements.last }

    /// A queue for a subject that replays `capacity` elements, or `nil` when it replays one at most.
    @inlinable
    static func make(capacity: Int) -> ReplayQueue? {
        capacity > 1 ? ReplayQueue() : nil
    }
}

extension SubjectCore {
    /// Called holding `lock`. Returns the element that left the buffer, for the caller to release after its lock.
    /// `element` is taken, not copied: a caller that keeps the element too makes the copy itself, where the compiler
    /// may make it with a retain per field instead of through the fields' value witnesses (see
    /// `publishFromSoleSenderKeepingLock`).
    @inlinable @inline(__always)
    func appendToReplay(_ element: consuming Element) -> Element? {
        switch replayCapacity {
        case 0: return nil
        case 1:
            return exchange(&latest, with: element)
        default:
            return replayQueue.unsafelyUnwrapped.append(element, capacity: replayCapacity)
        }
    }

    /// Called holding `lock`: the latest element replayed, if any.
    @inlinable
    var lastReplayed: Element? {
        replayCapacity <= 1 ? latest : replayQueue.unsafelyUnwrapped.last
    }

    /// Called holding `lock`: every element replayed, oldest first.
    @inlinable
    func forEachReplayed(_ body: (Element) -> Void) {
        if let replayQueue {
            for element in replayQueue.elements.elements { body(element) }
        } else if let latest {
            body(latest)
        }
    }
}
