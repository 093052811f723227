@_spi(Reflection) import Swift

/// Where `pulse(_:)` reads its pulse in each state: a `KeyPathReader` given the pulse's offset when the key path is
/// found to return a pulse stored in the state (`\.$alert`, `\.login.$error`), otherwise reading through the key path.
///
/// `KeyPathReader` alone would read `\.$alert` through the key path, at the cost of a call into the runtime's generic
/// projection for every state and subscriber: a computed key path (a property wrapper's projection) has no offset
/// that `MemoryLayout.offset(of:)` could give. The offset is found once per `pulse(_:)` call (see `locate`).
@usableFromInline
struct PulseField<State, Value> {
    @usableFromInline let pulse: KeyPathReader<State, Pulse<Value>>
    /// Where the pulse's update count lies in a state, or -1 when the pulse is read through the key path: found once,
    /// so that reading the count in each state needs no layout of `Pulse<Value>`, which code compiled once (the
    /// subscription's `PulseRunner`) would look up at run time.
    @usableFromInline let countOffsetInState: Int

    /// `countOffset` is `Self.countOffset`, passed in by a caller that knows `Value`: there it is a constant, where
    /// code compiled once (`PulseRunner.values`, which makes the field) would compute it through a key path made at
    /// run time.
    @inlinable
    init(_ keyPath: KeyPath<State, Pulse<Value>>, sample: State, countOffset: Int) {
        pulse = KeyPathReader(keyPath, offset: Self.locate(keyPath, sample: sample, countOffset: countOffset))
        countOffsetInState = pulse.offset >= 0 ? pulse.offset + countOffset : -1
    }

    /// Where `valueUpdatedCount` lies within a pulse (its storage, `updates`); the optimiser folds it to a constant.
    @inlinable
    static var countOffset: Int {
        MemoryLayout<Pulse<Value>>.offset(of: \Pulse<Value>.updates).unsafelyUnwrapped
    }

    /// The offset of the one stored pulse that `keyPath` returns, found by probing `sample`: each stored
    /// `Pulse<Value>` of the state (in nested structs too) gets two made-up update counts in turn, written into a
    /// copy of `sample`, and it is the one if `keyPath` then reads each of them back. Nil, so that the pulse is read
    /// through the key path, when the state is not a struct or when not exactly one stored pulse passes. A key path
    /// that returns different stored pulses depending on the state is not supported (see `pulse(_:delivery:)`).
    ///
    /// Compiled once, unspecialised: it runs once per `pulse(_:)` call, and a reactor type carries no copy of it.
    @usableFromInline @inline(never) @_semantics("optimize.sil.specialize.generic.never")
    static func locate(_ keyPath: KeyPath<State, Pulse<Value>>, sample: State, countOffset: Int) -> Int? {
        if let stored = MemoryLayout<State>.offset(of: keyPath) { return stored }
        guard #available(macOS 10.15.4, iOS 13.4, watchOS 6.2, tvOS 13.4, *) else { return nil }
        guard !(State.self is AnyObject.Type) else { return nil }
        var candidates: [Int] = []
        collectPulses(in: State.self, at: 0, depth: 0, into: &candidates)
        let matches = candidates.filter { candidate in
            var probe = sample
            return [UInt.max - 0x5EED, UInt.max - 0xF00D].allSatisfy { madeUpCount in
                withUnsafeMutableBytes(of: &probe) { bytes in
                    bytes.storeBytes(of: madeUpCount, toByteOffset: candidate + countOffset, as: UInt.self)
                }
                return probe[keyPath: keyPath].valueUpdatedCount == madeUpCount
            }
        }
        return matches.count == 1 ? matches[0] : nil
    }

    /// Appends the offset (from `base`) of each stored `Pulse<Value>` in the struct `type` and in its nested structs,
    /// `depth` levels down so far.
    @available(macOS 10.15.4, iOS 13.4, watchOS 6.2, tvOS 13.4, *)
    static func collectPulses(in type: Any.Type, at base: Int, depth: Int, into offsets: inout [Int]) {
        // Deep enough for a state's sub-states; deeper fields are library types, not states.
        guard depth < 4 else { return }
        _forEachField(of: type) { _, offset, fieldType, kind in
            if fieldType == Pulse<Value>.self {
                offsets.append(base + offset)
            } else if kind == .struct {
                collectPulses(in: fieldType, at: base + offset, depth: depth + 1, into: &offsets)
            }
            return true
        }
    }
}
