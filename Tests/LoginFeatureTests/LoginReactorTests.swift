import Foundation
import LoginFeature
import ReactorFlow
import ReactorFlowTesting
import Testing

/// A login reactor wired to a fake service on virtual time, plus both feature reactors.
struct LoginHarness {
    let scheduler = TestScheduler(resolution: .milliseconds(1))
    let service: FakeAuthService
    let store: TokenStore
    let events = AuthEvents()
    let reactor: LoginReactor
    let badge: ProfileBadgeReactor
    let settings: SettingsReactor

    init(store: TokenStore = InMemoryTokenStore(), latency: RxTimeInterval = .seconds(1)) {
        service = FakeAuthService(scheduler: scheduler, latency: latency)
        self.store = store
        reactor = LoginReactor(service: service, tokenStore: store, authEvents: events, clock: scheduler,
                               requestTimeout: .seconds(10))
        badge = ProfileBadgeReactor(authEvents: events)
        settings = SettingsReactor(authEvents: events)
        _ = badge.state
        _ = settings.state
    }

    func validToken(expiresIn seconds: TimeInterval = 60) -> AuthToken {
        let user = User(id: "kakao-7", name: "Ann", provider: .kakao)
        return AuthToken(value: "token-kakao-7", user: user, expiresAt: scheduler.now.addingTimeInterval(seconds))
    }
}

@Suite("Login reactor")
struct LoginReactorTests {
    @Test("5 taps while a slow login runs make exactly 1 call")
    func burstOfTaps() {
        let harness = LoginHarness()
        let alerts = harness.scheduler.record(harness.reactor.pulse(\.$alert).compactMap { $0 })
        harness.service.enqueue(.failure("Wrong password."))
        for _ in 0..<5 { harness.reactor.action.onNext(.tapLogin(.email)) }
        harness.scheduler.advance(by: .seconds(2))
        #expect(harness.service.loginCallCount == 1)
        #expect(alerts.events == [.next(1000, "Wrong password.")])
        #expect(harness.reactor.currentState.isLoading == false)
    }

    @Test("two failures with the same message show two alerts")
    func sameErrorTwice() {
        let harness = LoginHarness()
        let alerts = harness.scheduler.record(harness.reactor.pulse(\.$alert).compactMap { $0 })
        harness.service.enqueue(.failure("Wrong password."), .failure("Wrong password."))
        harness.reactor.action.onNext(.tapLogin(.email))
        harness.scheduler.advance(by: .seconds(1))
        harness.reactor.action.onNext(.tapLogin(.email))
        harness.scheduler.advance(by: .seconds(1))
        #expect(alerts.events == [.next(1000, "Wrong password."), .next(2000, "Wrong password.")])
    }

    @Test("a timeout becomes an alert, never an ended stream")
    func timeoutBecomesAlert() {
        let harness = LoginHarness()
        let alerts = harness.scheduler.record(harness.reactor.pulse(\.$alert).compactMap { $0 })
        harness.service.enqueue(.timeout, .existingUser)
        harness.reactor.action.onNext(.tapLogin(.apple))
        harness.scheduler.advance(by: .seconds(10))
        #expect(alerts.events == [.next(10_000, AuthError.timedOut.userMessage)])
        #expect(harness.service.cancellationCount == 1)
        harness.reactor.action.onNext(.tapLogin(.apple))
        harness.scheduler.advance(by: .seconds(1))
        #expect(harness.reactor.currentState.user?.provider == .apple)
    }

    @Test("success navigates exactly once, and a re-bound view with .unconsumed receives no route")
    func navigationOnce() {
        let harness = LoginHarness()
        let routes = harness.scheduler.record(harness.reactor.pulse(\.$route, delivery: .unconsumed).compactMap { $0 })
        harness.service.enqueue(.newUser)
        harness.reactor.action.onNext(.tapLogin(.kakao))
        harness.scheduler.advance(by: .seconds(1))
        #expect(routes.events == [.next(1000, .onboarding)])
        let rebound = harness.scheduler.record(harness.reactor.pulse(\.$route, delivery: .unconsumed).compactMap { $0 })
        harness.reactor.action.onNext(.tapLogin(.kakao))
        harness.scheduler.advance(by: .seconds(5))
        #expect(rebound.events.isEmpty)
        #expect(routes.events.count == 1)
        #expect(harness.service.loginCallCount == 1, "a signed-in user's tap starts nothing")
    }

    @Test("both feature reactors see login and logout through AuthEvents")
    func featuresHearAuthEvents() {
        let harness = LoginHarness()
        harness.reactor.action.onNext(.tapLogin(.kakao))
        harness.scheduler.advance(by: .seconds(1))
        #expect(harness.badge.currentState.title == "Hi, Ann")
        #expect(harness.settings.currentState.account == "Ann via kakao")
        #expect(harness.settings.currentState.isLogoutEnabled)
        harness.reactor.action.onNext(.logout)
        #expect(harness.badge.currentState == ProfileBadgeReactor.State())
        #expect(harness.settings.currentState == SettingsReactor.State())
    }

    @Test("logout during an in-flight login cancels it; no route follows")
    func logoutCancelsLogin() {
        let harness = LoginHarness()
        let routes = harness.scheduler.record(harness.reactor.pulse(\.$route).compactMap { $0 })
        harness.reactor.action.onNext(.tapLogin(.kakao))
        harness.scheduler.advance(by: .milliseconds(500))
        harness.reactor.action.onNext(.logout)
        #expect(harness.service.cancellationCount == 1)
        harness.scheduler.advance(by: .seconds(5))
        #expect(routes.events.isEmpty)
        #expect(harness.reactor.currentState.user == nil)
        #expect(harness.reactor.currentState.isLoading == false)
        #expect(harness.store.load() == .none)
    }

    @Test("auto-login with a stored valid token restores the session")
    func autoLoginValid() {
        let harness = LoginHarness()
        try? harness.store.save(harness.validToken())
        let routes = harness.scheduler.record(harness.reactor.pulse(\.$route).compactMap { $0 })
        harness.reactor.action.onNext(.autoLogin)
        #expect(harness.reactor.currentState.isLoading)
        harness.scheduler.advance(by: .seconds(1))
        #expect(harness.reactor.currentState.user?.name == "Ann")
        #expect(routes.events == [.next(1000, .main)])
        #expect(harness.service.restoreCallCount == 1)
        #expect(harness.badge.currentState.isSignedIn)
    }

    @Test("auto-login with an expired token stays signed out, clears it and says so")
    func autoLoginExpired() {
        let harness = LoginHarness()
        try? harness.store.save(harness.validToken(expiresIn: -1))
        let alerts = harness.scheduler.record(harness.reactor.pulse(\.$alert).compactMap { $0 })
        harness.reactor.action.onNext(.autoLogin)
        harness.scheduler.advance(by: .seconds(1))
        #expect(harness.reactor.currentState.user == nil)
        #expect(alerts.elements == ["Your session has expired. Please log in again."])
        #expect(harness.service.restoreCallCount == 0)
        #expect(harness.store.load() == .none)
    }

    @Test("auto-login with a revoked token shows why")
    func autoLoginRevoked() {
        let harness = LoginHarness()
        let token = harness.validToken()
        try? harness.store.save(token)
        harness.service.revoke(token)
        let alerts = harness.scheduler.record(harness.reactor.pulse(\.$alert).compactMap { $0 })
        harness.reactor.action.onNext(.autoLogin)
        harness.scheduler.advance(by: .seconds(1))
        #expect(alerts.elements == [AuthError.tokenRevoked.userMessage])
        #expect(harness.reactor.currentState.user == nil)
    }

    @Test("auto-login with a corrupt token file reports it and treats it as logged out")
    func autoLoginCorruptFile() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("reactorflow-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: url) }
        try Data("{ not json".utf8).write(to: url)
        let harness = LoginHarness(store: FileTokenStore(url: url))
        let alerts = harness.scheduler.record(harness.reactor.pulse(\.$alert).compactMap { $0 })
        harness.reactor.action.onNext(.autoLogin)
        harness.scheduler.advance(by: .seconds(1))
        #expect(harness.reactor.currentState.user == nil)
        #expect(alerts.elements.count == 1)
        #expect(alerts.elements.first?.contains("could not be read") == true)
        #expect(!FileManager.default.fileExists(atPath: url.path), "the unreadable file is cleared")
    }

    @Test("the file token store round-trips a token and reports a missing file as none")
    func fileTokenStore() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("reactorflow-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: url) }
        let store = FileTokenStore(url: url)
        #expect(store.load() == .none)
        let harness = LoginHarness()
        let token = harness.validToken()
        try store.save(token)
        #expect(store.load() == .token(token))
        store.clear()
        #expect(store.load() == .none)
    }
}

@Suite("Login reactor, step by step with ReactorTester")
struct LoginReactorTesterTests {
    @Test("a failed login, then a successful one, every change and pulse asserted")
    func loginStory() {
        let harness = LoginHarness()
        harness.service.enqueue(.failure("Wrong password."), .existingUser)
        let tester = ReactorTester(harness.reactor, scheduler: harness.scheduler)
        tester.send(.tapLogin(.email)) { $0.isLoading = true }
        tester.send(.tapLogin(.email))
        tester.advance(by: .seconds(1)) { $0.isLoading = false }
        tester.expectPulse(\.$alert, "Wrong password.")
        tester.send(.tapLogin(.kakao)) { $0.isLoading = true }
        tester.advance(by: .seconds(1)) {
            $0.isLoading = false
            $0.user = User(id: "kakao-2", name: "Ann", provider: .kakao)
        }
        tester.expectPulse(\.$route, .main)
        tester.send(.logout) { $0.user = nil }
        tester.finish()
        #expect(harness.service.loginCallCount == 2)
    }

    @Test("logout during a login cancels it; finish() proves nothing is left running")
    func logoutCancels() {
        let harness = LoginHarness()
        let tester = ReactorTester(harness.reactor, scheduler: harness.scheduler)
        tester.send(.tapLogin(.apple)) { $0.isLoading = true }
        tester.advance(by: .milliseconds(500))
        tester.send(.logout) { $0.isLoading = false }
        tester.finish()
        #expect(harness.service.cancellationCount == 1)
    }
}
