import Foundation
import LoginFeature
import ReactorFlow

/// The scripted tour: every problem the login example solves, on real time, in about two seconds.
@MainActor
struct Story {
    let options: Options
    let tokenStore: TokenStore

    func run() async -> Bool {
        let timeline = Timeline()
        let clock = SerialDispatchQueueScheduler(qos: .userInitiated, internalSerialQueueName: "fake-server")
        let latency = RxTimeInterval.milliseconds(options.latencyMilliseconds)
        let service = FakeAuthService(scheduler: clock, latency: latency, failureRate: options.failureRate, seed: options.seed)
        tokenStore.clear()
        print("ReactorFlow login example: a scripted story (latency \(options.latencyMilliseconds) ms). Columns: time, kind, what.")

        var app = App(service: service, tokenStore: tokenStore, timeline: timeline, clock: clock)
        let screen = LoginScreen(name: "LoginScreen", timeline: timeline)
        screen.reactor = app.login
        var problems: [String] = []
        func check(_ condition: Bool, _ message: String) {
            if !condition { problems.append(message) }
        }
        // Every wait has a deadline: a login ends within its 2-second request timeout, so 5 seconds means it is stuck.
        let deadline = Duration.seconds(5)
        func stopped(_ step: String, _ awaited: String) -> Bool {
            var reason = ""
            if let file = tokenStore as? FileTokenStore {
                switch file.load() {
                case .none: reason = " No session is saved in \(file.url.path) (was it deleted or never written?)."
                case .unreadable(let why): reason = " The saved session cannot be read: \(why)."
                case .token: reason = ""
                }
            }
            print("\n  STOPPED at step \(step): \(awaited) did not happen within \(deadline).\(reason)")
            return false
        }

        timeline.chapter("1. Launch with no saved session: auto-login finds nothing")
        app.login.action.onNext(.autoLogin)
        guard await app.waitUntilIdle(deadline: deadline) else { return stopped("1", "the auto-login") }
        check(app.login.currentState.user == nil, "auto-login without a token should stay signed out")

        timeline.chapter("2. A burst of 5 taps on a slow login makes one call; its failure is shown once")
        service.enqueue(.failure("Wrong password."), .failure("Wrong password."), .existingUser)
        for _ in 0..<5 { app.login.action.onNext(.tapLogin(.email)) }
        guard await app.waitFor({ !$0.isLoading }, deadline: deadline) else { return stopped("2", "the end of the login") }
        check(service.loginCallCount == 1, "5 taps should make 1 call")

        timeline.chapter("3. The same failure again is shown again (a pulse, not a distinctUntilChanged value)")
        app.login.action.onNext(.tapLogin(.email))
        guard await app.waitFor({ !$0.isLoading }, deadline: deadline) else { return stopped("3", "the end of the login") }
        check(timeline.count("ALERT") == 2, "two failures should show two alerts")

        timeline.chapter("4. Success: signed in, navigated once, and every feature heard it")
        app.login.action.onNext(.tapLogin(.kakao))
        guard await app.waitFor({ $0.user != nil && !$0.isLoading }, deadline: deadline) else { return stopped("4", "the sign-in") }
        check(timeline.count("NAVIGATE") == 1, "success should navigate once")
        check(app.badge.currentState.isSignedIn && app.settings.currentState.isLogoutEnabled, "both features should hear the login")

        timeline.chapter("5. The screen is re-created and binds again: no second navigation, no old alert")
        let rebound = LoginScreen(name: "LoginScreen (re-bound)", timeline: timeline)
        rebound.reactor = app.login
        check(timeline.count("NAVIGATE") == 1, "a re-bound screen should not navigate again")

        timeline.chapter("6. Next launch: auto-login restores the saved session")
        screen.reactor = nil
        rebound.reactor = nil
        app = App(service: service, tokenStore: tokenStore, timeline: timeline, clock: clock)
        let relaunched = LoginScreen(name: "LoginScreen (launch 2)", timeline: timeline)
        relaunched.reactor = app.login
        app.login.action.onNext(.autoLogin)
        guard await app.waitFor({ $0.user != nil && !$0.isLoading }, deadline: deadline) else {
            return stopped("6", "the restore of the saved session")
        }

        timeline.chapter("7. Logout: the badge and the settings screen both hear it")
        app.login.action.onNext(.logout)
        check(!app.badge.currentState.isSignedIn && !app.settings.currentState.isLogoutEnabled, "both features should hear the logout")

        timeline.chapter("8. Logout during a slow login cancels the request; no navigation follows")
        service.enqueue(.existingUser)
        let navigationsBefore = timeline.count("NAVIGATE")
        app.login.action.onNext(.tapLogin(.apple))
        app.login.action.onNext(.logout)
        try? await Task.sleep(for: .milliseconds(options.latencyMilliseconds + 100))
        check(service.cancellationCount >= 1, "logout should cancel the in-flight login")
        check(timeline.count("NAVIGATE") == navigationsBefore, "a cancelled login should not navigate")

        relaunched.reactor = nil
        print("""

        ── Summary
          login taps              8
          login calls made        \(service.loginCallCount)
          session restores        \(service.restoreCallCount)
          requests cancelled      \(service.cancellationCount)
          alerts shown            \(timeline.count("ALERT"))
          navigations             \(timeline.count("NAVIGATE"))
          actions / mutations     \(timeline.count("action")) / \(timeline.count("mutation"))
          badge at the end        \(app.badge.currentState.title)
          settings at the end     \(app.settings.currentState.account)
        """)
        if problems.isEmpty {
            print("  result                  every step behaved as described")
            return true
        }
        for problem in problems { print("  PROBLEM: \(problem)") }
        return false
    }
}
