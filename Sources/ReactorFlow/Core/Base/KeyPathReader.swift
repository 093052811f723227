/// Reads the value a key path names, straight from its place in memory when the key path names a stored property
/// held inline in the root (a struct's field, a field of that field, a tuple element).
///
/// For code that reads a key path it only learns at run time over and over (`ObservedReactor`, for each tracked
/// property and state): the runtime's generic `root[keyPath: keyPath]` walks the key path's components and looks up
/// type metadata on every call, several hundred instructions, while a stored property's offset is found once and
/// reading at it is a plain copy of the value. Anything else (a computed property such as a property wrapper's
/// `$projection`, a class's property, an optional chain) is read through the key path, so the result is the same
/// either way. Where the key path is a literal the optimizer can see, reading it directly is cheaper still: the
/// optimizer folds it into a field access.
@usableFromInline
struct KeyPathReader<Root, Value> {
    @usableFromInline let keyPath: KeyPath<Root, Value>
    /// The value's byte offset inside a `Root`, as `MemoryLayout.offset(of:)` documents it; -1 when it has none.
    @usableFromInline let offset: Int

    @inlinable
    init(_ keyPath: KeyPath<Root, Value>) {
        self.keyPath = keyPath
        offset = MemoryLayout<Root>.offset(of: keyPath) ?? -1
    }

    /// A reader of `keyPath` whose value the caller found at `offset` in every `Root`, for a key path that
    /// `MemoryLayout.offset(of:)` cannot place (a computed one that returns a stored value); nil: none.
    @inlinable
    init(_ keyPath: KeyPath<Root, Value>, offset: Int?) {
        self.keyPath = keyPath
        self.offset = offset ?? -1
    }

    @inlinable
    func read(_ root: Root) -> Value {
        withValue(in: root) { $0.pointee }
    }

    /// Calls `body` with the value's address: in place when it has an offset, otherwise of a copy read through the
    /// key path. For a reader that needs only part of the value, or hands it on by address.
    @inlinable
    func withValue<Result>(in root: Root, _ body: (UnsafePointer<Value>) -> Result) -> Result {
        guard offset >= 0 else { return withUnsafePointer(to: root[keyPath: keyPath], body) }
        // `offset(of:)` promises that the value lies at this offset, bound to its own type, for as long as the
        // root's storage is.
        return withUnsafePointer(to: root) { rootAddress in
            body(UnsafeRawPointer(rootAddress).advanced(by: offset).assumingMemoryBound(to: Value.self))
        }
    }
}
