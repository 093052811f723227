/// A class whose instances are equal only to themselves: `==` is `===`.
///
/// Add it to a reactor to compare reactors by identity, for example to tell which cell reactors of a list changed:
///
/// ```swift
/// final class ItemCellReactor: Reactor, IdentityEquatable { … }
/// #expect(sections[0].items.first == reactor)
/// ```
public protocol IdentityEquatable: AnyObject, Equatable {}

extension IdentityEquatable {
    /// Whether `lhs` and `rhs` are the same instance.
    public static func == (lhs: Self, rhs: Self) -> Bool { lhs === rhs }
}

/// A class that hashes and compares by identity, so that instances can key a dictionary or fill a set.
///
/// ```swift
/// final class ItemCellReactor: Reactor, IdentityHashable { … }
/// let visible: Set<ItemCellReactor> = [first, second]
/// ```
public protocol IdentityHashable: IdentityEquatable, Hashable {}

extension IdentityHashable {
    /// Hashes the instance's identity.
    public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
}
