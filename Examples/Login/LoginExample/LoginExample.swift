import Foundation
import LoginFeature
import ReactorFlow

@main
struct LoginExample {
    static func main() async {
        let options: Options
        do {
            guard let parsed = try Options.parse(Array(CommandLine.arguments.dropFirst())) else {
                print(Options.usage)
                return
            }
            options = parsed
        } catch {
            FileHandle.standardError.write(Data("error: \(error)\n\n\(Options.usage)\n".utf8))
            exit(2)
        }
        let tokenStore: TokenStore
        if let path = options.tokenFile {
            let fileStore = FileTokenStore(url: URL(fileURLWithPath: path))
            do {
                try fileStore.checkUsable()
            } catch {
                FileHandle.standardError.write(Data("error: --token-file \(error)\n".utf8))
                exit(2)
            }
            if !options.interactive && fileStore.holdsData {
                print("Note: \(path) holds data. The story starts logged out, so it clears that file first, then saves the session it makes there.")
            }
            tokenStore = fileStore
        } else {
            tokenStore = InMemoryTokenStore()
        }
        if options.interactive {
            let session = InteractiveSession(options: options, tokenStore: tokenStore)
            await session.run()
            withExtendedLifetime(session) {}
        } else {
            let passed = await Story(options: options, tokenStore: tokenStore).run()
            exit(passed ? 0 : 1)
        }
    }
}

/// Everything one "launch" of the app needs.
@MainActor
final class App {
    let service: FakeAuthService
    let events = AuthEvents()
    let login: LoginReactor
    let badge: ProfileBadgeReactor
    let settings: SettingsReactor
    let timeline: Timeline
    let badgeView: BadgeView
    let settingsView: SettingsView

    init(service: FakeAuthService, tokenStore: TokenStore, timeline: Timeline, clock: SchedulerType) {
        self.service = service
        self.timeline = timeline
        login = LoginReactor(service: service, tokenStore: tokenStore, authEvents: events, clock: clock,
                             requestTimeout: .seconds(2), deliveryScheduler: MainScheduler.instance,
                             log: { timeline.log($0.hasPrefix("action") ? "action" : "mutation", String($0.dropFirst(10))) })
        badge = ProfileBadgeReactor(authEvents: events)
        settings = SettingsReactor(authEvents: events)
        // Their screens exist from launch, so both features are listening before anyone logs in.
        badgeView = BadgeView(timeline: timeline)
        badgeView.reactor = badge
        settingsView = SettingsView(timeline: timeline)
        settingsView.reactor = settings
    }

    /// Waits until the login state satisfies `condition` and the login's requests have finished, for at most
    /// `deadline`; returns whether that happened in time.
    ///
    /// The second part matters: the state that ends a login (`isLoading == false`) is reduced just before the
    /// login's stream completes, and until it has, the `.first` policy ignores a new tap as a duplicate.
    func waitFor(_ condition: @escaping @Sendable (LoginReactor.State) -> Bool, deadline: Duration) async -> Bool {
        let login = self.login
        let timeline = self.timeline
        return await withDeadline(deadline) {
            let stream = login.state.filter(condition).take(1).values
            do {
                for try await _ in stream {}
            } catch {
                timeline.log("error", "waiting failed: \(error)")
            }
            await login.waitUntilIdle()
        }
    }

    /// Waits until no mutation stream of the login reactor runs, for at most `deadline`.
    func waitUntilIdle(deadline: Duration) async -> Bool {
        let login = self.login
        return await withDeadline(deadline) { await login.waitUntilIdle() }
    }
}

/// Runs `body`, giving up after `deadline`; returns whether it finished in time. On the deadline the body is
/// cancelled and this returns at once, whether or not the body notices.
func withDeadline(_ deadline: Duration, _ body: @escaping @Sendable @MainActor () async -> Void) async -> Bool {
    await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
        let answered = FirstAnswer()
        let work = Task { @MainActor in
            await body()
            if answered.claim() { continuation.resume(returning: true) }
        }
        Task {
            try? await Task.sleep(for: deadline)
            if answered.claim() {
                work.cancel()
                continuation.resume(returning: false)
            }
        }
    }
}

/// Lets exactly one of several racers answer.
final class FirstAnswer: @unchecked Sendable { // `taken` is guarded by `lock`
    private let lock = NSLock()
    private var taken = false

    /// True for the first caller only.
    func claim() -> Bool {
        lock.withLock {
            defer { taken = true }
            return !taken
        }
    }
}
