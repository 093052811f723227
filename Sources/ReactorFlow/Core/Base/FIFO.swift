/// A first-in first-out queue with amortised O(1) push and pop and no allocation while it stays small.
@usableFromInline
package struct FIFO<Element> {
    @inlinable package init() {}
    @usableFromInline var storage: [Element] = []
    /// Where the queue starts in `storage`, and how many elements it holds from there: kept beside the array, both
    /// in one word, so that `isEmpty` reads a field. Asked of the array, it is a call in code compiled once (a
    /// subject's delivery to each subscriber), which also looks up the array's type at run time. A queue of 2³¹
    /// elements (16 GB or more) traps.
    @usableFromInline var head: Int32 = 0
    @usableFromInline var queued: Int32 = 0

    /// Always inlined, also into code compiled once, where the optimiser inlines no generic call on its own.
    @inlinable @inline(__always) package var isEmpty: Bool { queued == 0 }
    @inlinable package var count: Int { Int(queued) }

    /// `append` and `popFirst` are always inlined: in code compiled once (`observe(on:)`), a call would look up the
    /// queue's type at run time on top of its array's, a few hundred instructions per element.
    @inlinable @inline(__always) package mutating func append(_ element: Element) {
        storage.append(element)
        queued += 1
    }

    @inlinable @inline(__always) package mutating func popFirst() -> Element? {
        guard queued > 0 else { return nil }
        if queued == 1 && head == 0 && storage.capacity <= 64 {
            // The common case, a queue of one: the element moves out, and the storage keeps its capacity. In code
            // compiled once (`observe(on:)`, a subscription's queue), emptying the array with `removeAll` costs a
            // dozen run-time type lookups; `removeLast` none.
            queued = 0
            return storage.removeLast()
        }
        let element = storage[Int(head)]
        head += 1
        queued -= 1
        if queued == 0 {
            storage.removeAll(keepingCapacity: storage.capacity <= 64)
            head = 0
        } else if head >= 32 && head >= queued {
            dropPopped()
        }
        return element
    }

    /// Gives back the storage of the popped elements, once they are half or more of it (and at least 32): compiled
    /// once, not for each element type, since it is rare and the array's code for it is large.
    @usableFromInline @inline(never) @_semantics("optimize.sil.specialize.generic.never")
    mutating func dropPopped() {
        storage.removeFirst(Int(head))
        head = 0
    }

    /// Empties the queue and gives its storage back.
    @inlinable package mutating func removeAll() {
        if storage.capacity != 0 { storage = [] }
        head = 0
        queued = 0
    }

    @inlinable package var elements: ArraySlice<Element> { storage[Int(head)...] }
}
