/// The rules shared by `share(replay:scope:)` and `refCount()`, apart from locking and subscriptions.
///
/// The first subscriber connects the source; the last one to leave disconnects it. Whether the replay buffer
/// survives a disconnection is the caller's choice (`SubjectLifetimeScope`).
struct RefCountStateMachine {
    private(set) var subscribers = 0

    /// A subscriber arrived: returns whether the source must be connected now.
    mutating func subscribed() -> Bool {
        subscribers += 1
        return subscribers == 1
    }

    /// A subscriber left: returns whether the source must be disconnected now.
    mutating func unsubscribed() -> Bool {
        guard subscribers > 0 else { return false }
        subscribers -= 1
        return subscribers == 0
    }
}
