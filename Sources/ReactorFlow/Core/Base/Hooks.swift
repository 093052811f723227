import Foundation

/// RxSwift's global hooks: what happens to an error that reaches a `subscribe` without `onError` (of an
/// `Observable`, a `Single`, a `Maybe` or a `Completable`).
///
/// By default such an error is reported through ``Diagnostics``. Setting `defaultErrorHandler` sends it to your
/// handler instead; the handler you replaced stays callable, so you can add to it:
///
/// ```swift
/// let previous = Hooks.defaultErrorHandler
/// Hooks.defaultErrorHandler = { callStack, error in
///     crashReporter.record(error)
///     previous(callStack, error)
/// }
/// ```
///
/// With `recordCallStackOnError`, the handler receives `customCaptureSubscriptionCallstack()` (by default the
/// thread's call stack symbols) taken when the error arrives; RxSwift takes it when the subscription is made, which
/// would cost every subscription, so ReactorFlow does not.
public enum Hooks {
    /// Receives an unhandled error and the call stack recorded for it (empty unless `recordCallStackOnError`).
    public typealias DefaultErrorHandler = (_ subscriptionCallStack: [String], _ error: Error) -> Void
    /// Captures a call stack for `defaultErrorHandler`.
    public typealias CustomCaptureSubscriptionCallstack = () -> [String]

    private struct Settings {
        var recordCallStackOnError = false
        var defaultErrorHandler: DefaultErrorHandler?
        var customCaptureSubscriptionCallstack: CustomCaptureSubscriptionCallstack = { Thread.callStackSymbols }
    }

    /// Every setting is read and written under the value's lock; the handlers themselves may be called from any thread.
    private static let settings = LockedValue(Settings())

    /// Whether `defaultErrorHandler` receives a call stack. Off by default.
    public static var recordCallStackOnError: Bool {
        get { settings.withLock { $0.recordCallStackOnError } }
        set { settings.withLock { $0.recordCallStackOnError = newValue } }
    }

    /// Called with every error that reaches a `subscribe` without `onError`. By default it reports the error through
    /// ``Diagnostics`` as `unhandledError`.
    public static var defaultErrorHandler: DefaultErrorHandler {
        get { settings.withLock { $0.defaultErrorHandler } ?? reportThroughDiagnostics }
        set { settings.withLock { $0.defaultErrorHandler = newValue } }
    }

    /// Captures the call stack `defaultErrorHandler` receives when `recordCallStackOnError` is on.
    public static var customCaptureSubscriptionCallstack: CustomCaptureSubscriptionCallstack {
        get { settings.withLock { $0.customCaptureSubscriptionCallstack } }
        set { settings.withLock { $0.customCaptureSubscriptionCallstack = newValue } }
    }

    /// Back to the defaults: no call stacks, errors reported through `Diagnostics` with their messages.
    static func restoreDefaults() {
        settings.withLock { $0 = Settings() }
    }

    private static func reportThroughDiagnostics(_ callStack: [String], _ error: Error) {
        Diagnostics.deliver(Diagnostic(kind: .unhandledError, errorDescription: String(describing: error),
                                       message: callStack.isEmpty ? "" : "call stack:\n" + callStack.joined(separator: "\n")))
    }

    /// Hands an unhandled error to the handler in place; `true` if one was set (otherwise `Diagnostics` reports it
    /// as usual, with its message).
    static func handleUnhandledError(_ error: Error) -> Bool {
        let (handler, capture) = settings.withLock { settings in
            (settings.defaultErrorHandler, settings.recordCallStackOnError ? settings.customCaptureSubscriptionCallstack : nil)
        }
        guard let handler else { return false }
        handler(capture?() ?? [], error)
        return true
    }
}
