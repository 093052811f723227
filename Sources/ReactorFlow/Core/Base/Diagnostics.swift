import Foundation

/// Something went wrong that has no stream left to travel in (an unhandled error, a failed global stream).
public struct Diagnostic: Sendable, CustomStringConvertible {
    /// What kind of problem this is; layers above the core add their own kinds.
    public struct Kind: RawRepresentable, Hashable, Sendable {
        /// The kind's name, as it appears in printed diagnostics.
        public let rawValue: String
        /// Creates a kind; define your own as a static constant in an extension, as ReactorFlow does.
        public init(rawValue: String) { self.rawValue = rawValue }

        /// An error reached a `subscribe` that has no `onError`.
        public static let unhandledError = Kind(rawValue: "unhandledError")
        /// An error reached a `bind(to:)`.
        public static let bindingError = Kind(rawValue: "bindingError")
        /// Code that must run on the main queue did not (`MainScheduler.ensureRunningOnMainThread()`).
        public static let notOnMainQueue = Kind(rawValue: "notOnMainQueue")
        /// A scheduler implements neither form of `schedule` (or of `scheduleRelative`); nothing was run.
        public static let schedulerIncomplete = Kind(rawValue: "schedulerIncomplete")
    }

    /// The kind of problem.
    public let kind: Kind
    /// A description of the error involved, if any.
    public let errorDescription: String?
    /// Extra words from the reporter.
    public let message: String

    /// A one-line summary: the kind, the message and the error, if any.
    public var description: String {
        var text = "[ReactorFlow] \(kind.rawValue)"
        if !message.isEmpty { text += ": \(message)" }
        if let errorDescription { text += " (\(errorDescription))" }
        return text
    }
}

/// The framework's diagnostics hook.
///
/// With no observer registered, diagnostics are printed to standard error. Tests and apps register an observer to
/// collect them (and then nothing is printed).
///
/// ```swift
/// let token = Diagnostics.addObserver { print("ReactorFlow:", $0) }
/// defer { Diagnostics.removeObserver(token) }
/// ```
public enum Diagnostics {
    /// Identifies a registered observer.
    public struct Token: Hashable, Sendable { fileprivate let id: Int }

    private static let observers = LockedValue<(next: Int, handlers: [Int: @Sendable (Diagnostic) -> Void])>((0, [:]))

    /// Registers `handler` for every diagnostic from now on.
    public static func addObserver(_ handler: @escaping @Sendable (Diagnostic) -> Void) -> Token {
        observers.withLock { state in
            let id = state.next
            state.next += 1
            state.handlers[id] = handler
            return Token(id: id)
        }
    }

    /// Unregisters an observer.
    public static func removeObserver(_ token: Token) {
        _ = observers.withLock { $0.handlers.removeValue(forKey: token.id) }
    }

    /// Reports a diagnostic to every observer, or to standard error when there is none. An `unhandledError` goes to
    /// ``Hooks/defaultErrorHandler`` instead, if one was set.
    public static func report(_ kind: Diagnostic.Kind, error: (any Error)? = nil, message: String = "") {
        if kind == .unhandledError, let error, Hooks.handleUnhandledError(error) { return }
        deliver(Diagnostic(kind: kind, errorDescription: error.map { String(describing: $0) }, message: message))
    }

    /// Hands `diagnostic` to every observer, or to standard error when there is none.
    static func deliver(_ diagnostic: Diagnostic) {
        let handlers = observers.withLock { $0.handlers.sorted { $0.key < $1.key }.map(\.value) }
        if handlers.isEmpty {
            FileHandle.standardError.write(Data((diagnostic.description + "\n").utf8))
        } else {
            for handler in handlers { handler(diagnostic) }
        }
    }
}
