import Foundation
@testable import ReactorFlow
import Testing

@Suite("AtomicWord")
struct AtomicWordTests {
    @Test("add returns the value before, wrapping past Int.max; a stored value is loaded back")
    func values() {
        let word = AtomicWord(5)
        #expect(word.add(3) == 5)
        #expect(word.add(-10) == 8)
        #expect(word.loadAcquiring() == -2)
        word.storeReleasing(.max)
        #expect(word.add(1) == .max)
        #expect(word.loadAcquiring() == .min)
        #expect(AtomicWord().loadAcquiring() == 0)
    }

    @Test("AtomicWord, Lock and PulseLedger each have one stored property, and it is the word their atomics change")
    func theWordIsTheSoleStoredProperty() {
        /// The object's stored property, if it has exactly one (its atomics address the first).
        func stored(_ object: AnyObject) -> Int? {
            let properties = Mirror(reflecting: object).children
            return properties.count == 1 ? properties.first?.value as? Int : nil
        }
        let word = AtomicWord()
        word.storeReleasing(7)
        #expect(stored(word) == 7)
        let lock = Lock.make()
        lock.lock()
        #expect(stored(lock) == 1)
        lock.unlock()
        #expect(stored(lock) == 0)
        let ledger = PulseLedger()
        ledger.markConsumed(5)
        #expect(stored(ledger) == 5)
        #expect(ledger.isConsumed(5))
        #expect(!ledger.isConsumed(4))
    }

    @Test("4 threads × 100,000 adds of 1 on one word return each value from 0 to 399,999 once; then 50,000 adds of -1 each leave exactly 200,000")
    func concurrentAdds() {
        let word = AtomicWord()
        let threads = 4, adds = 100_000
        let returned = (0..<threads).map { _ in LockedValue<[Int]>([]) }
        DispatchQueue.concurrentPerform(iterations: threads) { thread in
            var before: [Int] = []
            before.reserveCapacity(adds)
            for _ in 0..<adds { before.append(word.add(1)) }
            returned[thread].withLock { $0 = before }
        }
        #expect(word.loadAcquiring() == threads * adds)
        // Each add took the word from the value it returned, one at a time: 400,000 different values from 0 to
        // 399,999 (so none twice and none skipped), increasing within each thread. Counted, so that a failure
        // prints numbers rather than the values.
        let all = returned.flatMap(\.current)
        #expect(Set(all).count == threads * adds)
        #expect(all.min() == 0)
        #expect(all.max() == threads * adds - 1)
        #expect(returned.filter { $0.current != $0.current.sorted() }.count == 0)
        DispatchQueue.concurrentPerform(iterations: threads) { _ in
            for _ in 0..<adds / 2 { word.add(-1) }
        }
        #expect(word.loadAcquiring() == threads * adds / 2)
    }
}
