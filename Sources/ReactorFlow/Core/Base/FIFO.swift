/// A first-in first-out queue with amortised O(1) push and pop and no allocation while it stays small.
@usableFromInline
package struct FIFO<Element> {
    @inlinable package init() {}
    @usableFromInline var storage: [Element] = []
    @usableFromInline var head = 0

    @inlinable package var isEmpty: Bool { head == storage.count }
    @inlinable package var count: Int { storage.count - head }

    @inlinable package mutating func append(_ element: Element) {
        storage.append(element)
    }

    @inlinable package mutating func popFirst() -> Element? {
        guard head < storage.count else { return nil }
        let element = storage[head]
        head += 1
        if head == storage.count {
            storage.removeAll(keepingCapacity: storage.capacity <= 64)
            head = 0
        } else if head >= 32 && head * 2 >= storage.count {
            storage.removeFirst(head)
            head = 0
        }
        return element
    }

    /// Empties the queue and keeps its storage, for a queue that is filled and emptied in turns. Compiled once, not
    /// for each element type: it runs once per batch of queued work, and the array's code for it is large.
    @usableFromInline @inline(never) @_semantics("optimize.sil.specialize.generic.never")
    package mutating func removeAllKeepingCapacity() {
        storage.removeAll(keepingCapacity: true)
        head = 0
    }

    /// Empties the queue and gives its storage back.
    @inlinable package mutating func removeAll() {
        if storage.capacity != 0 { storage = [] }
        head = 0
    }

    @inlinable package var elements: ArraySlice<Element> { storage[head...] }
}
