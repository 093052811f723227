import ReactorFlowAtomics

/// An integer changed only by atomic instructions: the sole stored property of a small object, so that its address
/// is the object's first stored property and stays put for the object's life.
///
/// ReactorFlow's atomics are the C compiler's builtins (`ReactorFlowAtomics`) rather than `Synchronization.Atomic`,
/// which Apple's systems offer only from macOS 15 and iOS 18. `Lock` and `PulseLedger` hold their word the same way,
/// each as its own sole stored property, to spare an object; all three find it with `firstWord(of:)`, as an
/// `InlineLock` does.
final class AtomicWord: @unchecked Sendable { // `value` is read and written only by atomic instructions, at `address`
    private var value: Int

    init(_ value: Int = 0) { self.value = value }

    private var address: UnsafeMutablePointer<Int> { firstWord(of: self) }

    func loadAcquiring() -> Int { reactorflow_load_acquire(address) }
    func storeReleasing(_ newValue: Int) { reactorflow_store_release(address, newValue) }

    /// Adds `delta`, wrapping, and returns the value before; sequentially consistent.
    @discardableResult
    func add(_ delta: Int) -> Int { reactorflow_fetch_add_sequentially_consistent(address, delta) }
}

/// The address of `object`'s first stored property, an `Int` changed only by atomic instructions: the sole stored
/// property of an `AtomicWord`, a `Lock` or a `PulseLedger`, the first of an `InlineLock`'s owner. A class's stored
/// properties start there, the first declared first, and stay there for the object's life.
@inlinable @inline(__always)
func firstWord(of object: AnyObject) -> UnsafeMutablePointer<Int> {
    _getUnsafePointerToStoredProperties(object).assumingMemoryBound(to: Int.self)
}
