import Foundation
import LoginFeature
import ReactorFlow

/// A terminal login screen, redrawn in place. Keys come from standard input, so they can be typed (each key counts
/// at once: the terminal is in single-key mode while the screen runs) or piped.
@MainActor
final class InteractiveSession {
    private let options: Options
    private let tokenStore: TokenStore
    private var failing = false
    private var lastAlert: String?
    private var lastRoute: Route?

    init(options: Options, tokenStore: TokenStore) {
        self.options = options
        self.tokenStore = tokenStore
    }

    func run() async {
        let timeline = Timeline(quiet: true)
        let clock = SerialDispatchQueueScheduler(qos: .userInitiated, internalSerialQueueName: "fake-server")
        let service = FakeAuthService(scheduler: clock, latency: .milliseconds(options.latencyMilliseconds),
                                      failureRate: options.failureRate, seed: options.seed)
        failing = options.failureRate >= 1
        let app = App(service: service, tokenStore: tokenStore, timeline: timeline, clock: clock)
        let bag = DisposeBag()
        app.login.pulse(\.$alert, delivery: .unconsumed).compactMap { $0 }
            .subscribe(onNext: { [weak self] in self?.lastAlert = $0 }).disposed(by: bag)
        app.login.pulse(\.$route, delivery: .unconsumed).compactMap { $0 }
            .subscribe(onNext: { [weak self] in self?.lastRoute = $0 }).disposed(by: bag)
        app.login.state.subscribe(onNext: { [weak self] _ in self?.draw(app) }).disposed(by: bag)
        app.login.action.onNext(.autoLogin)

        let piped = !Terminal.enterSingleKeyMode()
        defer { Terminal.restore() }
        for await key in Self.keys() {
            // Piped keys wait for the previous request, as a person watching the screen would.
            while piped && app.login.currentState.isLoading {
                try? await Task.sleep(for: .milliseconds(10))
            }
            switch key {
            case "k": app.login.action.onNext(.tapLogin(.kakao))
            case "a": app.login.action.onNext(.tapLogin(.apple))
            case "e": app.login.action.onNext(.tapLogin(.email))
            case "o": app.login.action.onNext(.logout)
            case "f":
                failing.toggle()
                service.failureRate = failing ? 1 : 0
            case "q": break
            default: continue
            }
            draw(app)
            if key == "q" { break }
        }
        // Let a request still in flight finish, so a piped script shows its outcome.
        while app.login.currentState.isLoading {
            try? await Task.sleep(for: .milliseconds(20))
        }
        draw(app)
        print("Bye.")
    }

    private func draw(_ app: App) {
        let state = app.login.currentState
        let clear = isatty(STDOUT_FILENO) == 1 ? "\u{1B}[2J\u{1B}[H" : "\n"
        print("""
        \(clear)┌─ ReactorFlow login ───────────────────────────
        │ signed in:   \(state.user?.description ?? "no")
        │ loading:     \(state.isLoading ? "yes…" : "no")
        │ last alert:  \(lastAlert ?? "-")
        │ last route:  \(lastRoute?.description ?? "-")
        │ badge:       \(app.badge.currentState.title)
        │ settings:    \(app.settings.currentState.account)
        │ failures:    \(failing ? "on" : "off")   server calls: \(app.service.loginCallCount)
        ├───────────────────────────────────────────────
        │ k/a/e log in (Kakao/Apple/email)  o log out
        │ f toggle failures                 q quit
        └───────────────────────────────────────────────
        """)
    }

    /// Standard input, one key at a time, read on its own thread; ends at the end of input.
    private static func keys() -> AsyncStream<Character> {
        AsyncStream { continuation in
            Thread.detachNewThread {
                while let key = Terminal.readKey() { continuation.yield(key) }
                continuation.finish()
            }
        }
    }
}
