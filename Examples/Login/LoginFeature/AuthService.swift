import Foundation
import ReactorFlow

/// Signs users in. Each call is cold: subscribing starts the request, disposing cancels it.
public protocol AuthService: AnyObject {
    /// Signs in with `provider`.
    func login(with provider: AuthProvider) -> Single<AuthSession>
    /// Checks a stored token with the server and returns its user.
    func restore(_ token: AuthToken) -> Single<User>
}

/// A scripted, scheduler-driven `AuthService` for the example and its tests.
///
/// Latency runs on the given scheduler (a `TestScheduler` in tests, so no test ever sleeps). Outcomes are taken
/// from a script, one per call; when the script is empty, `failureRate` decides with a seeded generator.
public final class FakeAuthService: AuthService, @unchecked Sendable { // mutable state is guarded by `lock`
    /// What one call does.
    public enum Outcome: Equatable, Sendable {
        case existingUser
        case newUser
        case failure(String)
        /// Never answers (the caller's timeout decides).
        case timeout
    }

    private let lock = NSLock()
    private let scheduler: SchedulerType
    private let latency: RxTimeInterval
    private var script: [Outcome] = []
    private var generator: SeededGenerator
    private var calls = 0
    private var restores = 0
    private var cancellations = 0
    private var revokedTokens: Set<String> = []
    /// Chance, from 0 to 1, that an unscripted call fails.
    public var failureRate: Double {
        get { lock.withLock { storedFailureRate } }
        set { lock.withLock { storedFailureRate = min(1, max(0, newValue)) } }
    }
    private var storedFailureRate: Double
    /// How long issued tokens stay valid.
    public let tokenLifetime: TimeInterval

    public init(scheduler: SchedulerType, latency: RxTimeInterval = .milliseconds(300), failureRate: Double = 0,
                seed: UInt64 = 1, tokenLifetime: TimeInterval = 3600) {
        self.scheduler = scheduler
        self.latency = latency
        self.storedFailureRate = min(1, max(0, failureRate))
        self.generator = SeededGenerator(seed: seed)
        self.tokenLifetime = tokenLifetime
    }

    /// Queues outcomes for the next calls, in order.
    public func enqueue(_ outcomes: Outcome...) {
        lock.withLock { script.append(contentsOf: outcomes) }
    }

    /// Makes the server reject `token` on restore.
    public func revoke(_ token: AuthToken) {
        _ = lock.withLock { revokedTokens.insert(token.value) }
    }

    /// How many logins were started.
    public var loginCallCount: Int { lock.withLock { calls } }
    /// How many token restores were started.
    public var restoreCallCount: Int { lock.withLock { restores } }
    /// How many calls were disposed before they answered.
    public var cancellationCount: Int { lock.withLock { cancellations } }

    public func login(with provider: AuthProvider) -> Single<AuthSession> {
        Single.create { [self] observer in
            let (outcome, number) = lock.withLock { () -> (Outcome, Int) in
                calls += 1
                if !script.isEmpty { return (script.removeFirst(), calls) }
                let fails = Double(generator.next() % 10_000) / 10_000 < storedFailureRate
                return (fails ? .failure("\(provider) sign-in failed. Please try again.") : .existingUser, calls)
            }
            return answer(after: latency, observer: observer) {
                switch outcome {
                case .existingUser, .newUser:
                    let user = User(id: "\(provider)-\(number)", name: "Ann", provider: provider)
                    return .success(self.session(for: user, isNew: outcome == .newUser))
                case .failure(let message):
                    return .failure(AuthError.rejected(message))
                case .timeout:
                    return nil
                }
            }
        }
    }

    public func restore(_ token: AuthToken) -> Single<User> {
        Single.create { [self] observer in
            let revoked = lock.withLock { () -> Bool in
                restores += 1
                return revokedTokens.contains(token.value)
            }
            return answer(after: latency, observer: observer) {
                revoked ? .failure(AuthError.tokenRevoked) : .success(token.user)
            }
        }
    }

    private func session(for user: User, isNew: Bool) -> AuthSession {
        let token = AuthToken(value: "token-\(user.id)", user: user, expiresAt: scheduler.now.addingTimeInterval(tokenLifetime))
        return AuthSession(user: user, token: token, isNewUser: isNew)
    }

    /// Answers once after `delay` (or never, for `nil`), and counts a dispose before the answer as a cancellation.
    private func answer<Element>(after delay: RxTimeInterval, observer: @escaping (SingleEvent<Element>) -> Void,
                                 _ result: @escaping () -> SingleEvent<Element>?) -> Disposable {
        let answered = LockedFlag()
        let timer = scheduler.scheduleRelative(delay) {
            guard let result = result() else { return }
            answered.set()
            observer(result)
        }
        return Disposables.create { [self] in
            timer.dispose()
            if !answered.isSet { lock.withLock { cancellations += 1 } }
        }
    }
}

/// A tiny deterministic generator (SplitMix64), so `--seed` replays the same failures.
struct SeededGenerator {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

final class LockedFlag: @unchecked Sendable { // `value` is guarded by `lock`
    private let lock = NSLock()
    private var value = false
    func set() { lock.withLock { value = true } }
    var isSet: Bool { lock.withLock { value } }
}
