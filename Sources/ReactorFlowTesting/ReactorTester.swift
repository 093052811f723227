import ReactorFlow
import Testing

/// Drives a reactor step by step in virtual time and asserts, exhaustively by default, what each step did.
///
/// Each step (`send`, `advance`, `receive`) takes the expected change as a closure that mutates a copy of the
/// previously expected state; after the step the reactor's state must equal it (pulses aside), or the test fails
/// at the step's line with only the differing fields: `isLoading: expected true, got false`. Every pulse
/// assignment must be claimed with `expectPulse`, and `finish()` fails on anything left: unclaimed pulses, state
/// changes not yet asserted, or mutation streams still running.
///
/// ```swift
/// let scheduler = TestScheduler(resolution: .milliseconds(1))
/// let tester = ReactorTester(LoginReactor(service: FakeAuthService(scheduler: scheduler), …), scheduler: scheduler)
/// tester.send(.tapLogin(.kakao)) { $0.isLoading = true }
/// tester.advance(by: .seconds(1)) { $0.isLoading = false; $0.user = .sample }
/// tester.expectPulse(\.$route, .main)
/// tester.finish()
/// ```
public final class ReactorTester<R: Reactor> {
    /// Whether every state change and pulse must be asserted (`.on`, the default) or only what a step names
    /// (`.off`: a step compares only the fields its closure changed, and `finish()` checks nothing left over).
    public enum Exhaustivity: Sendable {
        /// Every state change and every pulse must be asserted; anything left unasserted fails the test.
        case on
        /// Only what the test asserts is checked; other changes are allowed.
        case off
    }

    /// The reactor under test.
    public let reactor: R
    /// The clock the reactor's effects run on.
    public let scheduler: TestScheduler
    /// See `Exhaustivity`.
    public var exhaustivity: Exhaustivity

    /// Every state delivered so far, starting with the first (the current state at creation).
    public private(set) var states: [R.State] = []
    private var expected: R.State
    private var claimedPulses: [AnyKeyPath: Int] = [:]
    private var stateCountAtLastAssertion = 1
    private let subscription: Disposable

    /// Starts observing `reactor`; its current state becomes the first expected state.
    public init(_ reactor: R, scheduler: TestScheduler, exhaustivity: Exhaustivity = .on) {
        self.reactor = reactor
        self.scheduler = scheduler
        self.exhaustivity = exhaustivity
        self.expected = reactor.currentState
        let recorder = StateRecorder<R.State>()
        subscription = reactor.state.subscribe(onNext: { recorder.append($0) })
        self.recorder = recorder
        scheduler.advance(byTicks: 0)
        states = recorder.all
        if let first = states.first { expected = first }
    }

    private let recorder: StateRecorder<R.State>

    deinit {
        subscription.dispose()
    }

    /// Sends `action`, runs what is due now, and asserts the state afterwards.
    public func send(_ action: R.Action, fileID: String = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column,
                     _ update: ((inout R.State) -> Void)? = nil) {
        reactor.action.onNext(action)
        scheduler.advance(byTicks: 0)
        assertStep("send(\(action))", update ?? { _ in }, FailureSite(fileID: fileID, filePath: filePath, line: line, column: column))
    }

    /// Advances virtual time by `interval`, running every effect due, and asserts the state afterwards.
    public func advance(by interval: RxTimeInterval, fileID: String = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column,
                        _ update: ((inout R.State) -> Void)? = nil) {
        scheduler.advance(by: interval)
        assertStep("advance(by: \(interval))", update ?? { _ in }, FailureSite(fileID: fileID, filePath: filePath, line: line, column: column))
    }

    /// Asserts the state changes made since the last step without doing anything (after work done outside the
    /// tester, such as a global stream the test drove).
    public func receive(fileID: String = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column,
                        _ update: (inout R.State) -> Void) {
        scheduler.advance(byTicks: 0)
        assertStep("receive", update, FailureSite(fileID: fileID, filePath: filePath, line: line, column: column))
    }

    /// Claims the next unclaimed assignment of the pulse at `keyPath` and asserts its value.
    public func expectPulse<Value: Equatable>(_ keyPath: KeyPath<R.State, Pulse<Value>>, _ value: Value,
                                            fileID: String = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column) {
        let site = FailureSite(fileID: fileID, filePath: filePath, line: line, column: column)
        states = recorder.all
        let assignments = pulseAssignments(keyPath)
        let claimed = claimedPulses[keyPath, default: 0]
        guard claimed < assignments.count else {
            site.record("expected the pulse \(keyPath) to be assigned \(StateDiff.show(value)), but it was not assigned (again)")
            return
        }
        claimedPulses[keyPath] = claimed + 1
        if assignments[claimed] != value {
            site.record("pulse \(keyPath): expected \(StateDiff.show(value)), got \(StateDiff.show(assignments[claimed]))")
        }
    }

    /// Asserts that nothing is left: in exhaustive mode, no unasserted state change, no unclaimed pulse, and no
    /// mutation stream or scheduled work still running. Disposes the tester's subscription.
    public func finish(fileID: String = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column) {
        let site = FailureSite(fileID: fileID, filePath: filePath, line: line, column: column)
        defer { subscription.dispose() }
        scheduler.advance(byTicks: 0)
        states = recorder.all
        guard exhaustivity == .on else { return }
        if states.count > stateCountAtLastAssertion {
            let diff = StateDiff.lines(expected: expected, actual: states.last!) // count > 1 so a last state exists
            if !diff.isEmpty {
                site.record("finish(): state changed after the last assertion:\n" + diff.joined(separator: "\n"))
            }
        }
        let unclaimed = unclaimedPulses()
        if !unclaimed.isEmpty {
            site.record("finish(): pulse assignments never claimed with expectPulse:\n" + unclaimed.joined(separator: "\n"))
        }
        let running = reactor.reactorStorage.pipeline(for: reactor).effects.count
        if running > 0 || scheduler.hasPendingWork {
            site.record("finish(): \(running) mutation stream(s) still running and \(scheduler.pendingWorkCount) item(s) still scheduled; advance the clock or cancel them")
        }
    }

    private func assertStep(_ step: String, _ update: (inout R.State) -> Void, _ site: FailureSite) {
        states = recorder.all
        let before = expected
        var next = expected
        update(&next)
        expected = next
        let actual = states.last ?? reactor.currentState
        stateCountAtLastAssertion = states.count
        let lines: [String]
        switch exhaustivity {
        case .on:
            lines = StateDiff.lines(expected: next, actual: actual)
        case .off:
            // Only the fields the closure changed are compared.
            let changed = Set(StateDiff.lines(expected: next, actual: before).map { $0.prefix { $0 != ":" } })
            lines = StateDiff.lines(expected: next, actual: actual).filter { changed.contains($0.prefix { $0 != ":" }) }
            expected = actual
        }
        if !lines.isEmpty {
            site.record("\(step): the state is not what was expected:\n" + lines.joined(separator: "\n"))
            expected = actual
        }
    }

    private func pulseAssignments<Value>(_ keyPath: KeyPath<R.State, Pulse<Value>>) -> [Value] {
        var values: [Value] = []
        guard var previous = states.first?[keyPath: keyPath].valueUpdatedCount else { return [] }
        for state in states.dropFirst() {
            let pulse = state[keyPath: keyPath]
            if pulse.valueUpdatedCount != previous {
                values.append(pulse.value)
                previous = pulse.valueUpdatedCount
            }
        }
        return values
    }

    /// Every pulse field whose assignments outnumber the claims, found by reflection; claims are matched to fields
    /// by count, since a key path does not name its field.
    private func unclaimedPulses() -> [String] {
        guard let first = states.first, states.count > 1 else { return [] }
        var assigned: [(field: String, values: [String])] = []
        for (index, child) in Mirror(reflecting: first).children.enumerated() where child.value is AnyPulse {
            var values: [String] = []
            var previous = (child.value as! AnyPulse).valueUpdatedCount // filtered by `is AnyPulse` above
            for state in states.dropFirst() {
                let pulse = Array(Mirror(reflecting: state).children)[index].value as! AnyPulse // same type, same layout
                if pulse.valueUpdatedCount != previous {
                    values.append(StateDiff.show(pulse.anyValue))
                    previous = pulse.valueUpdatedCount
                }
            }
            if !values.isEmpty { assigned.append((String((child.label ?? "pulse").drop { $0 == "_" }), values)) }
        }
        let total = assigned.reduce(0) { $0 + $1.values.count }
        let claimed = claimedPulses.values.reduce(0, +)
        guard total > claimed else { return [] }
        return ["\(total - claimed) of \(total) assignment(s) unclaimed; all assignments:"]
            + assigned.map { "  \($0.field): \($0.values.joined(separator: ", "))" }
    }
}

/// Collects states on whatever thread delivers them.
final class StateRecorder<State>: @unchecked Sendable { // `states` is guarded by `lock`
    private let lock = Lock.make()
    private var states: [State] = []

    func append(_ state: State) { lock.withLock { states.append(state) } }
    var all: [State] { lock.withLock { states } }
}
