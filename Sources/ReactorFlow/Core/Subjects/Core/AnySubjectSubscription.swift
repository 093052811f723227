/// A subject's subscription with its element type erased: what a subject's subscriber lists hold.
///
/// The lists are one type for every element type, so the code that adds to them, removes from them, retires and
/// releases them is compiled once, and code compiled once (a dispose, a subject's teardown) handles them without
/// looking up generic types at run time. A subject's lists hold only its own `SubjectSubscription<Element>`s, so
/// its delivery casts each one back without a check (`unsafeDowncast`, free in a release build).
@usableFromInline
class AnySubjectSubscription: @unchecked Sendable { // no state of its own
    @usableFromInline init() {}

    /// Ends the subscription without an event, because its subject went away
    /// (see `SubjectCore.releaseBecauseOwnerDied`).
    func releaseBecauseSourceDied() {}
}
