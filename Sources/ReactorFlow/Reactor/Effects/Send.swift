#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import ReactorFlowAtomics

/// Counts a reactor's running mutation streams and wakes whoever waits for the reactor to be idle: no stream
/// running and, for a reactor's loop, no turn running (a turn may hold queued actions whose streams have not started
/// yet).
///
/// A reactor's loop is its tracker (a subclass), which saves an object per reactor; a stub's pipeline, which runs no
/// streams, uses the shared `idle` one.
@usableFromInline
package class EffectTracker: @unchecked Sendable { // fields are guarded by `lock`
    @usableFromInline let lock: Lock
    private var streamsRunning = 0
    /// Read by the loop where its turn ends, in code compiled once (see `wakeIdleWaitersIfIdle`).
    var idleWaiters: [@Sendable () -> Void] = []

    /// `lock` may be shared with objects that, like this one, never call out while holding it.
    @usableFromInline init(lock: Lock) { self.lock = lock }

    /// A tracker nothing is ever counted in: a stub's.
    @usableFromInline static let idle = EffectTracker(lock: Lock.make())

    /// The number of mutation streams running now.
    package var count: Int { lock.withLock { streamsRunning } }

    /// Called holding `lock`: whether work other than the streams is under way (the loop overrides it with its turn).
    @usableFromInline var isBusyHoldingLock: Bool { false }

    /// Called holding `lock` when idle waiters wait only for the work `isBusyHoldingLock` reports: its end must wake
    /// them (with `wakeIdleWaitersIfIdle`).
    @usableFromInline func waitForTurnEndHoldingLock() {}

    @usableFromInline func started() { lock.withLock { streamsRunning += 1 } }

    /// A mutation stream ended (or was cancelled): it no longer counts, here or for the `send(_:)` that started it.
    @usableFromInline func streamEnded(token: SendToken?) {
        token?.streamFinished()
        finished()
    }

    @usableFromInline func finished() {
        let waiters = lock.withLock { () -> [@Sendable () -> Void] in
            streamsRunning -= 1
            return takeIdleWaitersIfIdleHoldingLock()
        }
        for waiter in waiters { waiter() }
    }

    /// Called holding `lock`: the waiters to wake, if the reactor is idle now; they leave the list. If only the
    /// loop's turn keeps it busy, that turn's end will wake them.
    private func takeIdleWaitersIfIdleHoldingLock() -> [@Sendable () -> Void] {
        guard streamsRunning == 0, !idleWaiters.isEmpty else { return [] }
        guard !isBusyHoldingLock else {
            waitForTurnEndHoldingLock()
            return []
        }
        defer { idleWaiters = [] }
        return idleWaiters
    }

    /// Called without `lock` by the loop after a turn that ended with waiters in the list: wakes them if the reactor
    /// is still idle. If another turn started meanwhile, it was made to end where it wakes them.
    @usableFromInline @inline(never)
    func wakeIdleWaitersIfIdle() {
        for waiter in lock.withLock({ takeIdleWaitersIfIdleHoldingLock() }) { waiter() }
    }

    /// Calls `body` once the reactor is idle (now, if it is).
    package func whenIdle(_ body: @escaping @Sendable () -> Void) {
        let now = lock.withLock { () -> Bool in
            guard streamsRunning == 0 else {
                idleWaiters.append(body)
                return false
            }
            guard isBusyHoldingLock else { return true }
            idleWaiters.append(body)
            waitForTurnEndHoldingLock()
            return false
        }
        if now { body() }
    }
}

/// Ties the mutation streams an action starts to the `send(_:)` call that sent it.
///
/// While `send` delivers its action it stands in a thread-local slot; the mutation stage, running on the same
/// thread, claims it and counts the streams it starts for it.
@usableFromInline
final class SendToken: @unchecked Sendable { // fields are guarded by `lock`
    /// Its lock's word (see `InlineLock`): the first stored property.
    private var lockWord = 0
    private static let slot: pthread_key_t = {
        var key = pthread_key_t()
        pthread_key_create(&key, nil)
        return key
    }()

    /// The token installed on this thread, if any.
    ///
    /// It first reads how many tokens stand in a thread's slot right now, on any thread: nearly always none, and then
    /// it skips the thread-local lookup, which every action sent to a reactor would otherwise pay. A thread counts its
    /// token before installing it, so it never reads zero while its own is installed; what other threads install
    /// does not concern it, so a relaxed load suffices. The count is a C global (`ReactorFlowAtomics`), a word at a
    /// fixed address, read without the lazy initialisation a Swift global object would check on every action.
    @inlinable static var current: SendToken? {
        reactorflow_send_tokens_installed_load_relaxed() == 0 ? nil : installedOnThisThread
    }

    @usableFromInline static var installedOnThisThread: SendToken? {
        pthread_getspecific(slot).map { Unmanaged<SendToken>.fromOpaque($0).takeUnretainedValue() }
    }

    private var lock: InlineLock { InlineLock(of: self) }
    private var claimed = false
    private var pending = 0
    private var onDone: (@Sendable () -> Void)?

    /// Runs `body` with this token in the thread-local slot.
    func install(during body: () -> Void) {
        reactorflow_send_tokens_installed_add_relaxed(1)
        defer { reactorflow_send_tokens_installed_add_relaxed(-1) }
        let previous = pthread_getspecific(Self.slot)
        pthread_setspecific(Self.slot, Unmanaged.passUnretained(self).toOpaque())
        body()
        pthread_setspecific(Self.slot, previous)
    }

    var isClaimed: Bool { lock.withLock { claimed } }

    @usableFromInline func claim() { lock.withLock { claimed = true } }

    @usableFromInline func streamStarted() { lock.withLock { pending += 1 } }

    @usableFromInline func streamFinished() {
        let done = lock.withLock { () -> (@Sendable () -> Void)? in
            pending -= 1
            guard pending == 0 else { return nil }
            defer { onDone = nil }
            return onDone
        }
        done?()
    }

    /// Calls `body` once every stream counted for this token has finished (now, if none is left).
    func whenDone(_ body: @escaping @Sendable () -> Void) {
        let now = lock.withLock { () -> Bool in
            if pending == 0 { return true }
            onDone = body
            return false
        }
        if now { body() }
    }
}

extension Reactor {
    /// Sends `action` and returns once the mutation streams it started have finished, their mutations reduced
    /// (with the default scheduler). For tests and for SwiftUI's `.task` and `.refreshable`.
    ///
    /// If the action could not be followed (another thread was processing actions at that moment, or
    /// `transform(action:)` delayed it), this waits as `waitUntilIdle()` does (rule D4).
    ///
    /// ```swift
    /// .refreshable { await reactor.send(.refresh) }
    /// ```
    nonisolated(nonsending) public func send(_ action: Action) async {
        let pipeline = reactorStorage.pipeline(for: self)
        let token = SendToken()
        token.install { pipeline.action.onNext(action) }
        let effects = pipeline.effects
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            if token.isClaimed {
                token.whenDone { continuation.resume() }
            } else {
                effects.whenIdle { continuation.resume() }
            }
        }
    }
}

extension Reactor {
    /// Returns once the reactor is idle (at once if it is): its loop runs no turn, so every action sent before this
    /// call has been taken, even one queued behind another thread's work, and none of its mutation streams is
    /// running, their mutations reduced (with the default scheduler). Rule D4.
    ///
    /// For code that must not send its next action while an earlier one's stream is still finishing: a state that
    /// says "done" (say, `isLoading == false`) can be reduced just before its stream completes, and a `.first` or
    /// `.serial` policy still counts that stream as running until it has. Streams merged in `transform(mutation:)`
    /// are not counted.
    ///
    /// ```swift
    /// reactor.action.onNext(.refresh)
    /// await reactor.waitUntilIdle()
    /// ```
    nonisolated(nonsending) public func waitUntilIdle() async {
        let effects = reactorStorage.pipeline(for: self).effects
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            effects.whenIdle { continuation.resume() }
        }
    }
}
