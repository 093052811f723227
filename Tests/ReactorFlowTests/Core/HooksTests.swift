import Foundation
@testable import ReactorFlow
import Testing

/// `Hooks`: where an error that reaches a `subscribe` without `onError` goes. The hooks are process-wide, so the
/// handler installed here passes other tests' errors on to the one it replaced.
@Suite("Hooks (A9)", .serialized)
struct HooksTests {
    @Test("A9 Hooks.defaultErrorHandler receives unhandled errors of Observable, Single, Maybe and Completable, with a call stack when asked; the replaced handler reports through Diagnostics")
    func defaultErrorHandler() {
        defer { Hooks.restoreDefaults() }
        let collected = DiagnosticsCollector()
        defer { collected.stop() }
        let previous = Hooks.defaultErrorHandler
        var handled: [(stack: [String], name: String)] = []
        Hooks.defaultErrorHandler = { stack, error in
            guard let error = error as? TestError, error.name.hasPrefix("hooks") else { return previous(stack, error) }
            handled.append((stack, error.name))
        }
        _ = Observable<Int>.error(TestError("hooks-observable")).subscribe(onNext: { _ in })
        _ = Single<Int>.error(TestError("hooks-single")).subscribe(onSuccess: { _ in })
        Hooks.recordCallStackOnError = true
        Hooks.customCaptureSubscriptionCallstack = { ["frame 0", "frame 1"] }
        _ = Maybe<Int>.error(TestError("hooks-maybe")).subscribe(onSuccess: { _ in })
        _ = Completable.error(TestError("hooks-completable")).subscribe(onCompleted: {})
        #expect(handled.map(\.name) == ["hooks-observable", "hooks-single", "hooks-maybe", "hooks-completable"])
        #expect(handled.map(\.stack) == [[], [], ["frame 0", "frame 1"], ["frame 0", "frame 1"]])
        #expect(collected.matching("hooks-").isEmpty)
        #expect(Hooks.recordCallStackOnError)

        previous(["frame"], TestError("passed-on"))
        #expect(collected.matching("TestError(passed-on)").map(\.kind) == [.unhandledError])
        #expect(collected.matching("call stack:\nframe").count == 1)
    }

    @Test("A9 with the default hooks an unhandled error is reported through Diagnostics, with its message")
    func defaultHooks() {
        Hooks.restoreDefaults()
        let collected = DiagnosticsCollector()
        defer { collected.stop() }
        #expect(!Hooks.recordCallStackOnError)
        #expect(!Hooks.customCaptureSubscriptionCallstack().isEmpty)
        _ = Single<Int>.error(TestError("hooks-default")).subscribe(onSuccess: { _ in })
        #expect(collected.matching("TestError(hooks-default)").map(\.message) == ["a Single failed and nobody handled it"])
    }
}
