/// How a reactor runs the mutation stream of an action while earlier streams of the same kind are still running.
///
/// Declared once per reactor in `effectPolicy(for:)`:
///
/// ```swift
/// func effectPolicy(for action: Action) -> EffectPolicy {
///     switch action {
///     case .search: return .latest          // a new query cancels the previous search
///     case .tapLogin: return .first         // taps while a login runs are ignored
///     case .save: return .serial            // saves run one after another
///     default: return .merge                // the default: all run at once, as in ReactorKit
///     }
/// }
/// ```
///
/// Actions share a lane when they have the same `id`; without one, actions of the same enum case share a lane
/// (`.search("a")` and `.search("ab")` do, `.search` and `.refresh` do not).
public struct EffectPolicy: Equatable {
    /// The four behaviours.
    public enum Kind: Sendable, Equatable {
        /// Every stream runs at once (the default, as in ReactorKit).
        case merge
        /// A new action disposes the running stream of its lane first.
        case latest
        /// An action arriving while its lane runs a stream is dropped; `mutate` is not called.
        case first
        /// An action arriving while its lane runs a stream waits, and runs when the lanes's earlier ones finish.
        case serial
    }

    /// The behaviour.
    public let kind: Kind
    /// The explicit lane, boxed: the policy is asked for on every action, and a one-word optional reference costs
    /// nothing to copy when it is `nil`, where an inline `AnyHashable?` costs a value-witness call per copy.
    @usableFromInline let lane: Lane?

    /// The lane, when given explicitly.
    public var id: AnyHashable? { lane?.id }

    @usableFromInline
    final class Lane: Equatable {
        @usableFromInline let id: AnyHashable
        @usableFromInline init(_ id: AnyHashable) { self.id = id }
        @usableFromInline static func == (lhs: Lane, rhs: Lane) -> Bool { lhs.id == rhs.id }
    }

    @inlinable init(kind: Kind, lane: Lane?) {
        self.kind = kind
        self.lane = lane
    }

    /// Every stream at once.
    @inlinable public static var merge: EffectPolicy { EffectPolicy(kind: .merge, lane: nil) }
    /// Latest wins, one lane per action case.
    @inlinable public static var latest: EffectPolicy { EffectPolicy(kind: .latest, lane: nil) }
    /// First wins, one lane per action case.
    @inlinable public static var first: EffectPolicy { EffectPolicy(kind: .first, lane: nil) }
    /// One at a time, one lane per action case.
    @inlinable public static var serial: EffectPolicy { EffectPolicy(kind: .serial, lane: nil) }

    /// Latest wins in the lane `id`.
    public static func latest(id: some Hashable) -> EffectPolicy { EffectPolicy(kind: .latest, lane: Lane(AnyHashable(id))) }
    /// First wins in the lane `id`.
    public static func first(id: some Hashable) -> EffectPolicy { EffectPolicy(kind: .first, lane: Lane(AnyHashable(id))) }
    /// One at a time in the lane `id`.
    public static func serial(id: some Hashable) -> EffectPolicy { EffectPolicy(kind: .serial, lane: Lane(AnyHashable(id))) }
}

extension Reactor {
    /// The default: every action's mutation stream runs alongside the others (`.merge`), as in ReactorKit.
    @inlinable @inline(__always) public func effectPolicy(for action: Action) -> EffectPolicy { .merge }
}

/// The lane of an action: the explicit id, or the action's enum case name.
@usableFromInline
func laneKey<Action>(for action: Action, policy: EffectPolicy) -> AnyHashable {
    if let id = policy.id { return id }
    let mirror = Mirror(reflecting: action)
    if mirror.displayStyle == .enum, let label = mirror.children.first?.label { return AnyHashable(label) }
    return AnyHashable(String(describing: action))
}
