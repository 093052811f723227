@testable import ReactorFlow
import Testing

@Suite("FIFO")
struct FIFOTests {
    @Test("pops in the order pushed, with pushes and pops interleaved, across the storage's compaction")
    func order() {
        var queue = FIFO<Int>()
        var popped: [Int] = []
        var next = 0
        // Three pushes per two pops: the head passes 32 while elements remain, which compacts the storage.
        for _ in 0..<100 {
            for _ in 0..<3 {
                queue.append(next)
                next += 1
            }
            for _ in 0..<2 { popped.append(queue.popFirst()!) }
        }
        #expect(queue.count == 100)
        #expect(Array(queue.elements) == Array(200..<300))
        while let element = queue.popFirst() { popped.append(element) }
        #expect(popped == Array(0..<300))
        #expect(queue.isEmpty)
        #expect(queue.count == 0)
        #expect(queue.popFirst() == nil)
    }

    @Test("is empty exactly when everything pushed was popped or removed, and is reusable after")
    func emptiness() {
        var queue = FIFO<String>()
        #expect(queue.isEmpty)
        queue.append("a")
        #expect(!queue.isEmpty && queue.count == 1)
        #expect(queue.popFirst() == "a")
        #expect(queue.isEmpty)
        queue.append("b")
        queue.append("c")
        queue.removeAll()
        #expect(queue.isEmpty && queue.count == 0 && queue.elements.isEmpty)
        queue.append("d")
        queue.append("e")
        #expect(queue.popFirst() == "d")
        queue.removeAll()
        #expect(queue.isEmpty && queue.popFirst() == nil)
        queue.append("f")
        #expect(Array(queue.elements) == ["f"])
    }

    @Test("lets go of what it pops: a queue of one hands its element over, a longer one releases them once emptied")
    func release() {
        final class Box {}
        var queue = FIFO<Box>()
        weak var single: Box?
        for _ in 0..<3 {
            do {
                let box = Box()
                single = box
                queue.append(box)
            }
            #expect(single != nil)
            #expect(queue.popFirst() != nil)
            #expect(single == nil)
            #expect(queue.isEmpty)
        }
        weak var first: Box?
        weak var second: Box?
        do {
            let a = Box(), b = Box()
            first = a
            second = b
            queue.append(a)
            queue.append(b)
        }
        #expect(queue.popFirst() != nil)
        #expect(queue.popFirst() != nil)
        #expect(first == nil && second == nil)
        #expect(queue.isEmpty && queue.popFirst() == nil)
    }
}
