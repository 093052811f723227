/// The choices a subject's core is made with (see `SubjectCore.init`), in one byte.
@usableFromInline
struct SubjectOptions: OptionSet {
    @usableFromInline let rawValue: UInt8
    @inlinable init(rawValue: UInt8) { self.rawValue = rawValue }

    @inlinable static var ignoresStopEvents: SubjectOptions { SubjectOptions(rawValue: 1) }
    @inlinable static var replaysAfterStop: SubjectOptions { SubjectOptions(rawValue: 2) }
}

/// A closure in a box of one word, for fields that are usually empty.
@usableFromInline
final class DisposeCallback {
    @usableFromInline let call: () -> Void
    @inlinable init(_ call: @escaping () -> Void) { self.call = call }
}
