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
        let tokenStore: TokenStore = options.tokenFile.map { FileTokenStore(url: URL(fileURLWithPath: $0)) } ?? InMemoryTokenStore()
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

    /// Waits until the login state satisfies `condition` and the login's requests have finished.
    ///
    /// The second part matters: the state that ends a login (`isLoading == false`) is reduced just before the
    /// login's stream completes, and until it has, the `.first` policy ignores a new tap as a duplicate.
    func waitFor(_ condition: @escaping @Sendable (LoginReactor.State) -> Bool) async {
        let stream = login.state.filter(condition).take(1).values
        do {
            for try await _ in stream {}
        } catch {
            timeline.log("error", "waiting failed: \(error)")
        }
        await login.waitUntilIdle()
    }
}
