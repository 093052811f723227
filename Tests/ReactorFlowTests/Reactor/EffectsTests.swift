import Foundation
import Observation
import ReactorFlow
import ReactorFlowTesting
import Testing

/// A reactor whose actions each take a while on a TestScheduler, under every policy.
final class PolicyReactor: Reactor {
    enum Action: Equatable {
        case search(String)
        case tap(Int)
        case save(Int)
        case plain(Int)
    }

    enum Mutation: Equatable {
        case log(String)
    }

    struct State: Equatable {
        var log: [String] = []
    }

    let initialState = State()
    let reactorStorage = ReactorStorage()
    let scheduler: TestScheduler
    let disposed = LockedLog()
    let mutateCalls = LockedLog()

    init(scheduler: TestScheduler) {
        self.scheduler = scheduler
    }

    func effectPolicy(for action: Action) -> EffectPolicy {
        switch action {
        case .search: return .latest
        case .tap: return .first
        case .save: return .serial(id: "disk")
        case .plain: return .merge
        }
    }

    func mutate(action: Action) -> Observable<Mutation> {
        mutateCalls.append("\(action)")
        let name: String
        switch action {
        case .search(let query): name = "search \(query)"
        case .tap(let number): name = "tap \(number)"
        case .save(let number): name = "save \(number)"
        case .plain(let number): name = "plain \(number)"
        }
        let disposed = self.disposed
        return Observable.concat(
            .just(.log("start \(name)")),
            Observable.just(.log("end \(name)")).delay(.milliseconds(100), scheduler: scheduler)
        ).do(onDispose: { disposed.append(name) })
    }

    func reduce(state: State, mutation: Mutation) -> State {
        var state = state
        switch mutation {
        case .log(let line): state.log.append(line)
        }
        return state
    }
}

/// `mutate` returns the `concat` of three `just`s a loading indicator makes, under the policy it is given: applied
/// without a subscription under `.merge`, subscribed to under the others.
final class LoadingReactor: Reactor {
    enum Action { case load(Int) }
    enum Mutation { case setLoading(Bool), setValue(Int) }
    struct State: Equatable {
        var isLoading = false
        var value = 0
    }

    let initialState = State()
    let reactorStorage = ReactorStorage()
    let policy: EffectPolicy

    init(policy: EffectPolicy) {
        self.policy = policy
    }

    func effectPolicy(for action: Action) -> EffectPolicy { policy }

    func mutate(action: Action) -> Observable<Mutation> {
        switch action {
        case .load(let value): .concat(.just(.setLoading(true)), .just(.setValue(value)), .just(.setLoading(false)))
        }
    }

    func reduce(state: State, mutation: Mutation) -> State {
        var state = state
        switch mutation {
        case .setLoading(let isLoading): state.isLoading = isLoading
        case .setValue(let value): state.value = value
        }
        return state
    }
}

/// A reactor whose every action is one shape of `concat`, each mutation a letter appended to the state.
final class ConcatShapesReactor: Reactor {
    enum Action: CaseIterable { case two, three, fiveInArray, none, justsAroundAnother }
    typealias Mutation = String
    typealias State = [String]

    let initialState: State = []
    let reactorStorage = ReactorStorage()

    func mutate(action: Action) -> Observable<Mutation> {
        switch action {
        case .two: .concat(.just("a"), .just("b"))
        case .three: .concat(.just("a"), .just("b"), .just("c"))
        case .fiveInArray: .concat(["a", "b", "c", "d", "e"].map { Observable.just($0) })
        case .none: .concat([])
        case .justsAroundAnother: .concat([.just("a"), .from(["b", "c"]), .just("d")])
        }
    }

    func reduce(state: State, mutation: Mutation) -> State { state + [mutation] }
}

final class LockedLog: @unchecked Sendable { // `lines` is guarded by `lock`
    private let lock = NSLock()
    private var lines: [String] = []
    func append(_ line: String) { lock.withLock { lines.append(line) } }
    var all: [String] { lock.withLock { lines } }
}

/// A `.serial` lane whose stream the test ends on another thread while the reactor is inside another action's
/// `mutate`; it records every `mutate` call and how many ran at once.
final class SerialHandOffReactor: Reactor {
    enum Action { case slow(Int), probe }
    enum Mutation { case finished }
    struct State { var finished = 0 }

    let initialState = State()
    let reactorStorage = ReactorStorage()
    let streams = [PublishSubject<Mutation>(), PublishSubject<Mutation>()]
    /// Whether `transform(mutation:)` changes the stream (the mutation stage then runs inside it, without the loop).
    let transformsMutations: Bool
    let calls = LockedLog()
    private let lock = NSLock()
    private var active = 0 // guarded by `lock`
    private var most = 0 // guarded by `lock`
    var mostAtOnce: Int { lock.withLock { most } }

    init(transformsMutations: Bool) {
        self.transformsMutations = transformsMutations
    }

    func transform(mutation: Observable<Mutation>) -> Observable<Mutation> {
        transformsMutations ? mutation.map { $0 } : mutation
    }

    func effectPolicy(for action: Action) -> EffectPolicy {
        if case .slow = action { return .serial(id: "slow") }
        return .merge
    }

    func mutate(action: Action) -> Observable<Mutation> {
        lock.withLock {
            active += 1
            most = max(most, active)
        }
        defer { lock.withLock { active -= 1 } }
        calls.append("\(action)")
        switch action {
        case .slow(let index):
            return streams[index]
        case .probe:
            // The first stream ends on another thread while this `mutate` runs; wait until that thread is done.
            let first = streams[0]
            let ended = DispatchSemaphore(value: 0)
            Thread.detachNewThread {
                first.onCompleted()
                ended.signal()
            }
            ended.wait()
            return .empty()
        }
    }

    func reduce(state: State, mutation: Mutation) -> State {
        var state = state
        state.finished += 1
        return state
    }
}

@Suite("Effects")
struct EffectsTests {
    enum LoadingPolicy: CaseIterable, Sendable {
        case merge, latest, first, serial
        var policy: EffectPolicy {
            switch self {
            case .merge: .merge
            case .latest: .latest
            case .first: .first
            case .serial: .serial(id: "loading")
            }
        }
    }

    @Test("B5 a concat of three justs is reduced in order, one state each, before onNext returns, under every policy",
          arguments: LoadingPolicy.allCases)
    func concatOfThreeJusts(policy: LoadingPolicy) {
        let reactor = LoadingReactor(policy: policy.policy)
        var states: [LoadingReactor.State] = []
        let subscription = reactor.state.subscribe(onNext: { states.append($0) })
        reactor.action.onNext(.load(7))
        #expect(reactor.currentState == .init(isLoading: false, value: 7))
        #expect(states.count == 4)
        reactor.action.onNext(.load(8))
        #expect(states == [
            .init(isLoading: false, value: 0),
            .init(isLoading: true, value: 0), .init(isLoading: true, value: 7), .init(isLoading: false, value: 7),
            .init(isLoading: true, value: 7), .init(isLoading: true, value: 8), .init(isLoading: false, value: 8),
        ])
        subscription.dispose()
    }

    @Test("B5 a concat of two, three or five justs, of none, or of justs around another stream is reduced in order before onNext returns",
          arguments: ConcatShapesReactor.Action.allCases)
    func concatShapes(shape: ConcatShapesReactor.Action) {
        let reactor = ConcatShapesReactor()
        var states: [[String]] = []
        let subscription = reactor.state.subscribe(onNext: { states.append($0) })
        reactor.action.onNext(shape)
        let expected: [String] = switch shape {
        case .two: ["a", "b"]
        case .three: ["a", "b", "c"]
        case .fiveInArray: ["a", "b", "c", "d", "e"]
        case .none: []
        case .justsAroundAnother: ["a", "b", "c", "d"]
        }
        #expect(reactor.currentState == expected)
        #expect(states == [[]] + expected.indices.map { Array(expected[...$0]) })
        subscription.dispose()
    }

    @Test("latest cancels the earlier stream; only the last action's mutations reach reduce")
    func latestPolicy() {
        let scheduler = TestScheduler(resolution: .milliseconds(1))
        let reactor = PolicyReactor(scheduler: scheduler)
        reactor.action.onNext(.search("a"))
        scheduler.advance(by: .milliseconds(50))
        reactor.action.onNext(.search("ab"))
        #expect(reactor.disposed.all == ["search a"])
        scheduler.advance(by: .milliseconds(200))
        #expect(reactor.currentState.log == ["start search a", "start search ab", "end search ab"])
    }

    @Test("first drops actions while one is in flight, and accepts the next after completion")
    func firstPolicy() {
        let scheduler = TestScheduler(resolution: .milliseconds(1))
        let reactor = PolicyReactor(scheduler: scheduler)
        reactor.action.onNext(.tap(1))
        reactor.action.onNext(.tap(2))
        // The stream's last element is delayed by 100 ms; its completion, which came with it, a tick more.
        scheduler.advance(by: .milliseconds(101))
        reactor.action.onNext(.tap(3))
        scheduler.advance(by: .milliseconds(100))
        #expect(reactor.mutateCalls.all == ["tap(1)", "tap(3)"])
        #expect(reactor.currentState.log == ["start tap 1", "end tap 1", "start tap 3", "end tap 3"])
    }

    @Test("serial runs them in order without overlap")
    func serialPolicy() {
        let scheduler = TestScheduler(resolution: .milliseconds(1))
        let reactor = PolicyReactor(scheduler: scheduler)
        reactor.action.onNext(.save(1))
        reactor.action.onNext(.save(2))
        reactor.action.onNext(.save(3))
        scheduler.advance(by: .seconds(1))
        #expect(reactor.currentState.log == ["start save 1", "end save 1", "start save 2", "end save 2", "start save 3", "end save 3"])
    }

    @Test("serial: the next queued action starts in the reactor's turn, never beside another action's mutate, even when the previous stream ends on another thread",
          arguments: [false, true])
    func serialHandOffStaysInTheLoop(transformsMutations: Bool) {
        let reactor = SerialHandOffReactor(transformsMutations: transformsMutations)
        reactor.action.onNext(.slow(0))
        reactor.action.onNext(.slow(1)) // queued behind .slow(0)
        reactor.action.onNext(.probe)   // .slow(0) ends on another thread during this mutate
        #expect(reactor.calls.all == ["slow(0)", "probe", "slow(1)"])
        #expect(reactor.mostAtOnce == 1)
        reactor.streams[1].onNext(.finished)
        #expect(reactor.currentState.finished == 1)
    }

    @Test("merge, the default, runs everything at once; lanes are per action case")
    func mergeAndLanes() {
        let scheduler = TestScheduler(resolution: .milliseconds(1))
        let reactor = PolicyReactor(scheduler: scheduler)
        reactor.action.onNext(.plain(1))
        reactor.action.onNext(.plain(2))
        reactor.action.onNext(.tap(1))
        reactor.action.onNext(.search("x"))
        scheduler.advance(by: .milliseconds(100))
        #expect(reactor.currentState.log == ["start plain 1", "start plain 2", "start tap 1", "start search x",
                                             "end plain 1", "end plain 2", "end tap 1", "end search x"])
    }

    @Test("releasing the reactor cancels in-flight async work: the Task sees cancellation")
    func releaseCancelsTasks() async {
        let cancelled = AsyncSignal()
        let started = AsyncSignal()
        var reactor: AsyncReactor? = AsyncReactor(started: started, cancelled: cancelled)
        reactor?.action.onNext(.load)
        await started.wait()
        reactor = nil
        await cancelled.wait()
    }

    @Test("D4 send returns only after the last mutation of its action is reduced")
    func sendWaits() async {
        let reactor = AsyncReactor(started: AsyncSignal(), cancelled: AsyncSignal())
        await reactor.send(.quick)
        #expect(reactor.currentState.steps == ["one", "two", "three"])
        await reactor.send(.sync)
        #expect(reactor.currentState.steps == ["one", "two", "three", "sync"])
    }

    @Test("D4 waitUntilIdle returns once every running mutation stream has finished; at once when none runs")
    func waitUntilIdle() async {
        let reactor = AsyncReactor(started: AsyncSignal(), cancelled: AsyncSignal())
        await reactor.waitUntilIdle()
        #expect(reactor.currentState.steps.isEmpty)
        reactor.action.onNext(.quick)
        reactor.action.onNext(.quick)
        await reactor.waitUntilIdle()
        #expect(reactor.currentState.steps.count == 6)
        #expect(reactor.currentState.steps.filter { $0 == "three" }.count == 2)
    }

    /// A stream that ends on one thread while another thread runs the reactor's loop leaves its last mutation queued
    /// there: the stream counts as running (for `send` and `waitUntilIdle`) until that mutation is reduced.
    @Test("D4 a mutation stream counts as running until the mutations it sent before it ended are reduced")
    func streamEndIsCountedAfterItsMutations() async {
        let reactor = BlockingReduceReactor()
        let effects = reactor.reactorStorage.pipeline(for: reactor).effects
        reactor.action.onNext(.follow) // the stream is `reactor.stream`, a subject this test drives
        #expect(effects.count == 1)
        let shared = Shared(reactor)
        Thread.detachNewThread { shared.value.action.onNext(.block) } // its `reduce` waits for `release`
        reactor.entered.wait()
        reactor.stream.onNext(.add(1)) // queued behind the blocked item
        reactor.stream.onCompleted()
        #expect(effects.count == 1) // still running: its mutation is not reduced yet
        reactor.release.signal()
        await reactor.waitUntilIdle()
        #expect(reactor.currentState == 101)
        #expect(effects.count == 0)
    }

    /// Nothing waits forever for a reactor that died: its death disposes its streams (B9), which then count finished.
    @Test("D4 when the reactor dies with a mutation stream running, the stream counts as finished and idle waiters are woken")
    func deathWakesIdleWaiters() {
        var reactor: BlockingReduceReactor? = BlockingReduceReactor()
        let effects = reactor.unsafelyUnwrapped.reactorStorage.pipeline(for: reactor.unsafelyUnwrapped).effects
        let stream = reactor.unsafelyUnwrapped.stream
        reactor?.action.onNext(.follow) // a stream that never ends by itself
        #expect(effects.count == 1)
        let woken = LockedLog()
        effects.whenIdle { woken.append("idle") }
        #expect(woken.all == [])
        reactor = nil
        #expect(woken.all == ["idle"])
        #expect(effects.count == 0)
        stream.onNext(.add(1)) // the disposed stream's later events go nowhere
        stream.onCompleted()
        #expect(effects.count == 0)
    }

    /// An action sent while another thread runs the reactor's loop waits in the queue: until that turn takes it, no
    /// stream of it runs, yet the reactor is not idle.
    @Test("D4 waitUntilIdle waits for an action queued behind another thread's turn, and for the streams it starts")
    func idleWaitsForTheLoopsTurn() async {
        let reactor = BlockingReduceReactor()
        let effects = reactor.reactorStorage.pipeline(for: reactor).effects
        let shared = Shared(reactor)
        Thread.detachNewThread { shared.value.action.onNext(.block) } // its `reduce` waits for `release`
        reactor.entered.wait()
        reactor.action.onNext(.followSignalling) // queued behind the blocked item
        let woken = LockedLog()
        effects.whenIdle { woken.append("idle at \(shared.value.currentState)") }
        #expect(effects.count == 0)
        #expect(woken.all == []) // no stream runs, but the queued action has not been taken
        reactor.release.signal()
        reactor.followed.wait() // the other thread's turn subscribes to the queued action's stream
        #expect(woken.all == []) // its stream runs
        reactor.stream.onNext(.add(1))
        reactor.stream.onCompleted()
        await reactor.waitUntilIdle() // woken after the waiter registered before it, in the same wake-up
        #expect(woken.all == ["idle at 101"])
        #expect(effects.count == 0)
    }

    /// The loop's turn usually ends where it reduces its action's last mutation, with nothing queued; a waiter that
    /// comes meanwhile makes it end where waiters are woken.
    @Test("D4 a waiter that comes while another thread's turn runs, with nothing queued, is woken as that turn ends")
    func idleWaiterIsWokenAtTheTurnsEnd() {
        let reactor = BlockingReduceReactor()
        let effects = reactor.reactorStorage.pipeline(for: reactor).effects
        let shared = Shared(reactor)
        let returned = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            shared.value.action.onNext(.block) // its `reduce` waits for `release`
            returned.signal()
        }
        reactor.entered.wait()
        let woken = LockedLog()
        effects.whenIdle { woken.append("idle at \(shared.value.currentState)") }
        #expect(woken.all == [])
        reactor.release.signal()
        returned.wait()
        #expect(woken.all == ["idle at 100"])
    }

    @Test("Observable.run emits what it sends, fails with what it throws")
    func observableRun() async throws {
        let values = try await Observable<Int>.run { send in
            send(1)
            await Task.yield()
            send(2)
        }.values.collect()
        #expect(values == [1, 2])
        await #expect(throws: TestError.self) {
            _ = try await Observable<Int>.run { _ in throw TestError() }.values.collect()
        }
    }
}

/// A reactor whose `.block` is reduced on whichever thread runs it, waiting there until the test signals `release`.
final class BlockingReduceReactor: Reactor, @unchecked Sendable { // the semaphores and the subject are thread-safe
    enum Action { case follow, followSignalling, block }
    enum Mutation { case add(Int), block }
    typealias State = Int

    let initialState = 0
    let reactorStorage = ReactorStorage()
    let stream = PublishSubject<Mutation>()
    let entered = DispatchSemaphore(value: 0)
    let release = DispatchSemaphore(value: 0)
    /// Signalled when `.followSignalling`'s stream is subscribed to.
    let followed = DispatchSemaphore(value: 0)

    func mutate(action: Action) -> Observable<Mutation> {
        switch action {
        case .follow: return stream.asObservable()
        case .followSignalling: return stream.do(onSubscribed: { [followed] in followed.signal() })
        case .block: return .just(.block)
        }
    }

    func reduce(state: State, mutation: Mutation) -> State {
        switch mutation {
        case .add(let value): return state + value
        case .block:
            entered.signal()
            release.wait()
            return state + 100
        }
    }
}

/// A reactor with async mutations written with `Observable.run`.
final class AsyncReactor: Reactor {
    enum Action { case load, quick, sync }
    enum Mutation { case step(String) }
    struct State { var steps: [String] = [] }

    let initialState = State()
    let reactorStorage = ReactorStorage()
    let started: AsyncSignal
    let cancelled: AsyncSignal

    init(started: AsyncSignal, cancelled: AsyncSignal) {
        self.started = started
        self.cancelled = cancelled
    }

    func mutate(action: Action) -> Observable<Mutation> {
        switch action {
        case .load:
            let (started, cancelled) = (self.started, self.cancelled)
            return .run { send in
                await started.fire()
                do {
                    try await Task.sleep(for: .seconds(60))
                } catch {
                    await cancelled.fire()
                }
                send(.step("never"))
            }
        case .quick:
            return .run { send in
                send(.step("one"))
                try await Task.sleep(for: .milliseconds(5))
                send(.step("two"))
                await Task.yield()
                send(.step("three"))
            }
        case .sync:
            return .just(.step("sync"))
        }
    }

    func reduce(state: State, mutation: Mutation) -> State {
        var state = state
        switch mutation {
        case .step(let name): state.steps.append(name)
        }
        return state
    }
}

@Suite("ObservedReactor (Observation)")
@MainActor
struct ObservedReactorTests {
    @available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
    @Test("a tracked property change triggers onChange exactly once per state change that alters it")
    func trackedPropertyChanges() async {
        let reactor = ProbeReactor()
        let model = ObservedReactor(reactor)
        let valueChanges = Counter()
        let logChanges = Counter()
        func trackValue() { withObservationTracking { _ = model.value } onChange: { valueChanges.increment() } }
        func trackLog() { withObservationTracking { _ = model.log } onChange: { logChanges.increment() } }
        trackValue()
        trackLog()

        model.send(.add(1))
        await settle()
        #expect(model.value == 1)
        #expect(valueChanges.count == 1)
        #expect(logChanges.count == 0, "log did not change")
        trackValue()

        model.send(.record("x"))
        await settle()
        #expect(valueChanges.count == 1, "value did not change")
        #expect(logChanges.count == 1)
        trackLog()

        model.send(.add(0))
        await settle()
        #expect(valueChanges.count == 1, "a state change that leaves value equal does not notify it")

        let wholeStateChanges = Counter()
        withObservationTracking { _ = model.state } onChange: { wholeStateChanges.increment() }
        model.send(.add(2))
        await settle()
        #expect(model.state.value == 3)
        #expect(valueChanges.count == 2)
        #expect(wholeStateChanges.count == 1)
        await model.perform(.add(1))
        await settle()
        #expect(model.value == 4)
    }

    /// A computed property has no offset to read at: it is compared through its key path, with the same result.
    @available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
    @Test func aTrackedComputedPropertyNotifiesOnlyWhenItsValueChanges() async {
        let reactor = ProbeReactor()
        let model = ObservedReactor(reactor)
        let countChanges = Counter()
        func trackCount() { withObservationTracking { _ = model.logCount } onChange: { countChanges.increment() } }
        trackCount()
        model.send(.add(5))
        await settle()
        #expect(countChanges.count == 0, "the log did not grow")
        model.send(.record("x"))
        await settle()
        #expect(countChanges.count == 1)
        #expect(model.logCount == 1)
    }

    @available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
    @Test("a binding reads one property through the model, tracked, and sends an action when set")
    func bindingThroughTheModel() async {
        let reactor = ProbeReactor()
        let model = ObservedReactor(reactor)
        let binding = model.binding(get: \.value, send: { .add($0) })
        let changes = Counter()
        withObservationTracking { _ = binding.wrappedValue } onChange: { changes.increment() }
        #expect(binding.get() == 0)
        binding.wrappedValue = 4
        await settle()
        #expect(reactor.currentState.value == 4)
        #expect(binding.get() == 4)
        #expect(changes.count == 1, "reading the binding tracked the property")

        let fixed = model.binding(get: \.log, send: .record("set"))
        fixed.set(["ignored"])
        await settle()
        #expect(fixed.get() == ["set"])
    }

    /// Lets state hop to the main queue if it was not delivered inline.
    private func settle() async {
        for _ in 0..<5 { await Task.yield() }
    }
}

private extension ProbeReactor.State {
    var logCount: Int { log.count }
}
