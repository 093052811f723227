import Foundation
import ReactorFlow
import ReactorFlowTesting
import Testing

/// A reactor whose `transform(action:)` blocks until the test lets it finish, so that another thread can arrive
/// while its pipeline is being built.
final class SlowBuildReactor: Reactor {
    typealias Action = Int
    typealias State = Int

    let initialState = 0
    let reactorStorage = ReactorStorage()
    let building = DispatchSemaphore(value: 0)
    let mayFinish = DispatchSemaphore(value: 0)
    let transformCalls = LockedLog()

    func transform(action: Observable<Int>) -> Observable<Int> {
        transformCalls.append("action")
        building.signal()
        mayFinish.wait()
        return action
    }

    func reduce(state: Int, mutation: Int) -> Int { state + mutation }
}

/// A reactor whose hooks do something while its pipeline is built: `transform(action:)` starts with an action, or
/// `transform(mutation:)` merges in a mutation emitted at once, or `transform(action:)` subscribes to the reactor's own
/// `state`.
private final class StartingReactor: Reactor {
    enum Action { case add(Int) }
    typealias Mutation = Action
    struct State: Equatable { var total = 0 }
    enum Start: CaseIterable { case withAction, withMutation, bySubscribingToState }

    let initialState = State()
    let reactorStorage = ReactorStorage()
    let start: Start
    let statesSeenByTheHook = EventLog<Int>()
    let bag = DisposeBag()

    init(_ start: Start) {
        self.start = start
    }

    func reduce(state: State, mutation: Mutation) -> State {
        switch mutation {
        case .add(let amount): State(total: state.total + amount)
        }
    }

    func transform(action: Observable<Action>) -> Observable<Action> {
        switch start {
        case .withAction: return action.startWith(.add(100))
        case .withMutation: return action
        case .bySubscribingToState:
            state.map(\.total).subscribe(statesSeenByTheHook.observer()).disposed(by: bag)
            return action
        }
    }

    func transform(mutation: Observable<Mutation>) -> Observable<Mutation> {
        start == .withMutation ? .merge(mutation, .just(.add(10))) : mutation
    }
}

@Suite("Reactor contract (B)")
struct ReactorContractTests {
    @Test("B1 a reactor needs its types, initialState, mutate, reduce and one storage line; Mutation defaults to Action")
    func minimalConformance() {
        let reactor = EchoReactor()
        reactor.action.onNext(.set(7))
        #expect(reactor.currentState.value == 7)
    }

    @Test("B2 the pipeline is built once, lazily and thread-safely; the first subscriber gets initialState")
    func pipelineBuiltOnce() {
        for _ in 0..<50 {
            let reactor = ProbeReactor()
            #expect(reactor.transformCalls.count == 0)
            let shared = Shared(reactor)
            onThreads(4) { thread in
                switch thread % 3 {
                case 0: _ = shared.value.action
                case 1: _ = shared.value.currentState
                default: _ = shared.value.state
                }
            }
            #expect(reactor.transformCalls.count == 3)
        }
        let reactor = ProbeReactor()
        let (log, _) = reactor.state.log()
        #expect(log.elements == [ProbeReactor.State()])
    }

    @Test("B2 a subscriber of action gets every action after the reactor took it, with default and own transforms")
    func actionCanBeObserved() {
        for hasOwnTransform in [false, true] {
            let reactor = ProbeReactor()
            // An own `transform(mutation:)` stream subscribes to the actions; the default one lets the loop take them.
            if hasOwnTransform { reactor.globalMutations = .never() }
            var seen: [ProbeReactor.Action] = []
            var valuesWhenSeen: [Int] = []
            let watching = reactor.action.subscribe(onNext: { action in
                seen.append(action)
                valuesWhenSeen.append(reactor.currentState.value)
            })
            reactor.action.onNext(.add(1))
            reactor.action.onNext(.add(2))
            #expect(seen == [.add(1), .add(2)])
            #expect(valuesWhenSeen == [1, 3])
            #expect(reactor.currentState.value == 3)
            watching.dispose()
        }
    }

    @Test("B2 a mutation or an action that a hook's stream emits while the pipeline is built comes after the initial state",
          arguments: [StartingReactor.Start.withAction, .withMutation])
    fileprivate func emittedWhileBuilding(start: StartingReactor.Start) {
        let reactor = StartingReactor(start)
        let expected = start == .withAction ? 100 : 10
        let states = EventLog<Int>()
        let bag = DisposeBag()
        reactor.state.map(\.total).subscribe(states.observer()).disposed(by: bag)
        #expect(reactor.currentState.total == expected)
        #expect(states.events == [.next(expected)])
        reactor.action.onNext(.add(1))
        #expect(states.events == [.next(expected), .next(expected + 1)])
        #expect(reactor.currentState.total == expected + 1)
    }

    @Test("B2 a hook that subscribes to the reactor's state while the pipeline is built gets the initial state, then each new one")
    func subscribedToStateWhileBuilding() {
        let reactor = StartingReactor(.bySubscribingToState)
        let states = EventLog<Int>()
        reactor.state.map(\.total).subscribe(states.observer()).disposed(by: reactor.bag)
        reactor.action.onNext(.add(1))
        #expect(reactor.statesSeenByTheHook.events == [.next(0), .next(1)])
        #expect(states.events == [.next(0), .next(1)])
        #expect(reactor.currentState.total == 1)
    }

    @Test("B2 a thread that touches a reactor while another builds its pipeline waits for that one pipeline")
    func aSecondThreadWaitsForTheBuilder() {
        let reactor = SlowBuildReactor()
        let shared = Shared(reactor)
        let bothDone = DispatchGroup()
        bothDone.enter()
        Thread.detachNewThread {
            _ = shared.value.state // builds; blocks inside transform(action:)
            bothDone.leave()
        }
        reactor.building.wait()
        bothDone.enter()
        Thread.detachNewThread {
            shared.value.action.onNext(5) // must wait for the pipeline being built, then use it
            bothDone.leave()
        }
        // Not a timing assumption: the deadline only turns a broken wait (a second build) into a failure, not a hang.
        let deadline = Date().addingTimeInterval(30)
        while !reactor.reactorStorage.isBuildWaitedFor && Date() < deadline { sched_yield() }
        #expect(reactor.reactorStorage.isBuildWaitedFor)
        reactor.mayFinish.signal()
        reactor.mayFinish.signal() // for a second build, if the wait were broken
        bothDone.wait()
        #expect(reactor.transformCalls.all == ["action"])
        #expect(reactor.currentState == 5)
    }

    @Test("B3 actions sent before anyone subscribes to state are processed")
    func actionsBeforeSubscription() {
        let reactor = ProbeReactor()
        reactor.action.onNext(.add(1))
        reactor.action.onNext(.add(2))
        #expect(reactor.currentState.value == 3)
        let (log, _) = reactor.state.log()
        #expect(log.elements.map(\.value) == [3])
    }

    @Test("B4 8 threads × 50,000 increments: exactly 400,000, reduce never concurrent")
    func reduceSerializedUnderLoad() {
        let reactor = LoadCounterReactor()
        let received = Counter()
        let subscription = reactor.state.subscribe(onNext: { _ in received.increment() })
        let shared = Shared(reactor)
        onThreads(8) { _ in
            let action = shared.value.action
            for _ in 0..<50_000 { action.onNext(.increase) }
        }
        #expect(reactor.currentState.value == 400_000)
        #expect(reactor.overlaps.overlapCount == 0)
        #expect(received.count == 400_001)
        subscription.dispose()
    }

    /// The loop moves the state into `reduce` and the relay rather than copying it: a state holding an array must
    /// still reach each `reduce` as the previous one left it, and every delivered state must keep its own value.
    @Test("B4 each reduce receives the state the previous one produced, references included",
          arguments: PipelineShape.allCases)
    func reduceChainsStatesWithReferences(shape: PipelineShape) {
        let reactor = shape.reactor()
        var logs: [[String]] = []
        let subscription = reactor.state.subscribe(onNext: { logs.append($0.log) })
        reactor.action.onNext(.record("a"))
        reactor.action.onNext(.record("b"))
        reactor.action.onNext(.addTwice(1)) // a concat: a mutation that is not the last of its action, then the last
        reactor.action.onNext(.record("c"))
        #expect(logs == [[], ["a"], ["a", "b"], ["a", "b"], ["a", "b"], ["a", "b", "c"]])
        #expect(reactor.currentState.log == ["a", "b", "c"])
        #expect(reactor.currentState.value == 2)
        subscription.dispose()
    }

    @Test("B5 a synchronous mutate has updated currentState when onNext returns, and before subscribers hear",
          arguments: PipelineShape.allCases)
    func synchronousPath(shape: PipelineShape) {
        let reactor = shape.reactor()
        var seenInSubscriber: [Int] = []
        let subscription = reactor.state.skip(1).subscribe(onNext: { state in
            seenInSubscriber.append(reactor.currentState.value)
            #expect(reactor.currentState == state)
        })
        reactor.action.onNext(.addTwice(5))
        #expect(reactor.currentState.value == 10)
        #expect(seenInSubscriber == [5, 10])
        subscription.dispose()
    }

    @Test("B2 state subscribers with an element handler, a plain onNext, or neither (observe(on:), an observer) get the current state, then every state, in order",
          arguments: PipelineShape.allCases)
    func stateSubscribersOfEveryKind(shape: PipelineShape) {
        let reactor = shape.reactor()
        let bag = DisposeBag()
        var chained: [Int] = [], plain: [Int] = [], observedOn: [Int] = [], observer: [Event<Int>] = []
        var joinedLate: [Int] = []
        var lateSubscription: Disposable?
        reactor.state.map(\.value).subscribe(onNext: { chained.append($0) }).disposed(by: bag)
        reactor.state.subscribe(onNext: { plain.append($0.value) }).disposed(by: bag)
        reactor.state.observe(on: CurrentThreadScheduler.instance).subscribe(onNext: { [unowned reactor] state in
            observedOn.append(state.value)
            // Reentrant, from a subscriber without an element handler: queued behind this state (B6).
            if state.value == 1 { reactor.action.onNext(.add(10)) }
            // Joins while this state is being delivered: gets it once, through its replay, and then the next ones.
            // Kept outside the bag: a closure that the bag keeps must not keep the bag.
            if state.value == 1 { lateSubscription = reactor.state.subscribe(onNext: { joinedLate.append($0.value) }) }
        }).disposed(by: bag)
        reactor.state.subscribe(AnyObserver { observer.append($0.map(\.value)) }).disposed(by: bag)
        reactor.action.onNext(.add(1))
        reactor.action.onNext(.add(100))
        #expect(chained == [0, 1, 11, 111])
        #expect(plain == [0, 1, 11, 111])
        #expect(observedOn == [0, 1, 11, 111])
        #expect(observer == [.next(0), .next(1), .next(11), .next(111)])
        #expect(joinedLate == [1, 11, 111])
        lateSubscription?.dispose()
    }

    @Test("B6 reentrant actions from a subscriber, from mutate and from reduce are queued FIFO",
          arguments: PipelineShape.allCases)
    func reentrantActionsFIFO(shape: PipelineShape) {
        let reactor = shape.reactor()
        var order: [String] = []
        // Unowned: the reactor keeps these closures, so a strong capture would keep the reactor forever.
        reactor.onMutate = { [unowned reactor] action in
            if action == .record("from-mutate-trigger") { reactor.action.onNext(.record("sent-in-mutate")) }
        }
        reactor.onReduce = { [unowned reactor] state in
            if state.log.last == "from-reduce-trigger" { reactor.action.onNext(.record("sent-in-reduce")) }
        }
        let subscription = reactor.state.skip(1).subscribe(onNext: { state in
            order.append(state.log.last ?? "")
            if state.log.last == "first" {
                reactor.action.onNext(.record("second"))
                reactor.action.onNext(.record("third"))
                #expect(reactor.currentState.log.last == "first", "queued, not processed recursively")
            }
        })
        reactor.action.onNext(.record("first"))
        reactor.action.onNext(.record("from-mutate-trigger"))
        reactor.action.onNext(.record("from-reduce-trigger"))
        #expect(order == ["first", "second", "third", "from-mutate-trigger", "sent-in-mutate", "from-reduce-trigger", "sent-in-reduce"])
        #expect(reactor.reduceOverlaps.overlapCount == 0)
        subscription.dispose()
    }

    @Test("B6 a hundred reentrant actions, or mutations of a transform(mutation:) stream, keep their order turn after turn",
          arguments: PipelineShape.allCases)
    func manyReentrantItemsKeepOrder(shape: PipelineShape) {
        let reactor = shape.reactor()
        // With streams between the stages, actions wait in the action subject's own queue; mutations of the hook's
        // stream are what waits in the loop's queue then.
        let mutations = PublishSubject<ProbeReactor.Mutation>()
        if shape == .streamsBetweenStages { reactor.globalMutations = mutations.asObservable() }
        var expected: [String] = []
        let subscription = reactor.state.skip(1).subscribe(onNext: { state in
            guard let last = state.log.last, last.hasPrefix("round"), !last.contains("-") else { return }
            // More than one piece of the loop's queue holds, sent while the loop is busy with `last`.
            for index in 0..<100 {
                if shape == .streamsBetweenStages {
                    mutations.onNext(.record("\(last)-\(index)"))
                } else {
                    reactor.action.onNext(.record("\(last)-\(index)"))
                }
            }
            #expect(reactor.currentState.log.last == last, "queued, not processed recursively")
        })
        for round in 0..<3 {
            reactor.action.onNext(.record("round\(round)"))
            expected += ["round\(round)"] + (0..<100).map { "round\(round)-\($0)" }
            #expect(reactor.currentState.log == expected)
        }
        #expect(reactor.reduceOverlaps.overlapCount == 0)
        subscription.dispose()
    }

    @Test("B6 queued actions release what they carry once they ran")
    func queuedActionsReleased() {
        weak var ranToken: Token?
        do {
            let reactor = TokenReactor()
            let token = Token()
            ranToken = token
            let subscription = reactor.state.subscribe(onNext: { [unowned reactor] count in
                // Queued behind the state being delivered, ten at a time.
                if count.isMultiple(of: 10) && count < 50 {
                    for _ in 0..<10 { reactor.action.onNext(token) }
                }
            })
            #expect(reactor.currentState == 50)
            subscription.dispose()
        }
        #expect(ranToken == nil)
    }

    @Test("B7 an error in a mutation stream ends that stream only and is reported")
    func mutationErrorIsContained() {
        let collected = DiagnosticsCollector()
        defer { collected.stop() }
        let reactor = ProbeReactor()
        let (log, _) = reactor.state.log()
        reactor.action.onNext(.add(1))
        reactor.action.onNext(.fail)
        reactor.action.onNext(.add(2))
        #expect(log.events.map { $0.element?.value } == [0, 1, 3])
        #expect(collected.matching("mutationFailed").count >= 1)
        #expect(collected.matching("ProbeReactor.mutate(action: fail)").count == 1)
    }

    @Test("B7b a failed global stream never silences state; later subscribers get the latest state; reported once")
    func failedGlobalStream() {
        let collected = DiagnosticsCollector()
        defer { collected.stop() }
        let global = PublishSubject<ProbeReactor.Mutation>()
        let reactor = ProbeReactor()
        reactor.globalMutations = global.asObservable()
        let (early, _) = reactor.state.log()
        reactor.action.onNext(.add(4))
        global.onNext(.add(1))
        global.onError(ReactorTestError.globalStreamFailed)
        #expect(early.events.map { $0.element?.value } == [0, 4, 5])
        #expect(early.events.allSatisfy { !$0.isStopEvent })
        let (late, _) = reactor.state.log()
        #expect(late.events.map { $0.element?.value } == [5])
        #expect(collected.matching("globalStreamFailed").count == 1)
        #expect(collected.matching("globalStreamFailed").first?.kind == .reactorStreamEnded)
        #expect(collected.matching("ProbeReactor.transform(action:) or transform(mutation:) failed; actions are no longer processed, the last state stays current").count == 1)
    }

    @Test("B7b a failed transform(state:) stream is reported once; subscribers keep the last state it delivered and get no error")
    func failedStateTransformStream() {
        let collected = DiagnosticsCollector()
        defer { collected.stop() }
        let failure = PublishSubject<ProbeReactor.State>()
        let reactor = ProbeReactor()
        reactor.stateTransform = { states in Observable.merge(states, failure) }
        let (early, _) = reactor.state.log()
        reactor.action.onNext(.add(2))
        failure.onError(ReactorTestError.stateStreamFailed)
        reactor.action.onNext(.add(3))
        #expect(early.events.map { $0.element?.value } == [0, 2])
        #expect(early.events.allSatisfy { !$0.isStopEvent })
        let (late, _) = reactor.state.log()
        #expect(late.events.map { $0.element?.value } == [2])
        #expect(collected.matching("ProbeReactor.transform(state:) failed; the last state stays current").count == 1)
        #expect(collected.matching("stateStreamFailed").map(\.kind) == [.reactorStreamEnded])
    }

    @Test("B7b error and completion sent into action are ignored")
    func terminalEventsIntoActionAreIgnored() {
        let reactor = ProbeReactor()
        _ = Observable<ProbeReactor.Action>.error(ReactorTestError.mutationFailed).bind(to: reactor.action)
        _ = Observable.of(ProbeReactor.Action.add(1)).bind(to: reactor.action)
        reactor.action.onError(ReactorTestError.mutationFailed)
        reactor.action.onCompleted()
        reactor.action.onNext(.add(2))
        #expect(reactor.currentState.value == 3)
    }

    @Test("B8 each transform is called once; what transform(state:) changes is not fed back into reduce")
    func transformsOnceAndNotFedBack() {
        let reactor = ProbeReactor()
        var reducedValues: [Int] = []
        reactor.onReduce = { reducedValues.append($0.value) }
        reactor.stateTransform = { $0.map { state in
            var state = state
            state.value *= 10
            return state
        } }
        reactor.action.onNext(.add(1))
        reactor.action.onNext(.add(1))
        _ = reactor.state
        _ = reactor.currentState
        #expect(reactor.transformCalls.count == 3)
        #expect(reducedValues == [1, 2])
        #expect(reactor.currentState.value == 20)
    }

    @Test("B9 10,000 released reactors deinitialise and dispose every in-flight mutation stream")
    func releasedReactorsCancelWork() {
        let disposed = Counter()
        var weakReactors: [WeakBox<ProbeReactor>] = []
        let keptSubscriptions = CompositeDisposable()
        for _ in 0..<10_000 {
            let reactor = ProbeReactor(neverDisposed: disposed)
            keptSubscriptions.insert(reactor.state.subscribe(onNext: { _ in }))
            reactor.action.onNext(.never)
            weakReactors.append(WeakBox(reactor))
        }
        #expect(weakReactors.allSatisfy { $0.value == nil })
        #expect(disposed.count == 10_000)
        keptSubscriptions.dispose()
    }

    @Test("B9 a reactor's death disposes the streams its transform(mutation:) and transform(state:) returned; their later events are dropped")
    func ownTransformStreamsDisposedWithReactor() {
        let disposed = Counter()
        let mutations = PublishSubject<ProbeReactor.Mutation>()
        var reactor: ProbeReactor? = ProbeReactor()
        reactor?.globalMutations = mutations.do(onDispose: { disposed.increment() })
        reactor?.stateTransform = { $0.do(onDispose: { disposed.increment() }) }
        let (log, subscription) = reactor!.state.log()
        mutations.onNext(.add(1))
        #expect(disposed.count == 0)
        reactor = nil
        #expect(disposed.count == 2)
        mutations.onNext(.add(1))
        #expect(log.events.map { $0.element?.value } == [0, 1])
        #expect(!mutations.hasObservers)
        subscription.dispose()
    }

    @Test("B9 subscriptions nobody disposed are released with the reactor, not leaked")
    func undisposedSubscribersReleased() {
        weak var stateToken: Token?
        weak var pulseToken: Token?
        weak var actionToken: Token?
        weak var weakReactor: ProbeReactor?
        do {
            let reactor = ProbeReactor()
            weakReactor = reactor
            let tokens = (Token(), Token(), Token())
            (stateToken, pulseToken, actionToken) = tokens
            _ = reactor.state.subscribe(onNext: { _ in _ = tokens.0 })
            _ = reactor.pulse(\.$alert).subscribe(onNext: { _ in _ = tokens.1 })
            _ = reactor.action.subscribe(onNext: { _ in _ = tokens.2 })
            reactor.action.onNext(.add(1))
        }
        #expect(weakReactor == nil)
        #expect(stateToken == nil)
        #expect(pulseToken == nil)
        #expect(actionToken == nil)
    }

    @Test("B9 sending to a released reactor's action is a no-op")
    func sendAfterRelease() {
        var reactor: ProbeReactor? = ProbeReactor()
        let action = reactor!.action
        weak let weakReactor = reactor
        reactor = nil
        #expect(weakReactor == nil)
        action.onNext(.add(1))
        #expect(!action.hasObservers)
    }

    @Test("B10 a reactor can deliver state on the main queue without changing B4–B6")
    func mainSchedulerDelivery() async throws {
        let reactor = ProbeReactor()
        reactor.customScheduler = MainScheduler.instance
        // Subscribed here, before anything is sent: the first state itself arrives later, on the main queue.
        let states = reactor.state.map { ($0.value, MainScheduler.isOnMainQueue) }.take(3).values
        let sender = Shared(reactor)
        DispatchQueue.global().async {
            sender.value.action.onNext(.add(1))
            sender.value.action.onNext(.add(2))
        }
        let received = try await states.collect()
        #expect(received.map(\.0) == [0, 1, 3])
        // The first is a replay to this subscriber (on its own thread, if the state was already there).
        #expect(received.dropFirst().allSatisfy { $0.1 })
        #expect(reactor.currentState.value == 3)
    }

    @Test("B12 a subscriber that waits for another thread which sends an action does not deadlock")
    func noLockHeldDuringSubscribers() {
        let reactor = ProbeReactor()
        let shared = Shared(reactor)
        var values: [Int] = []
        let subscription = reactor.state.subscribe(onNext: { state in
            values.append(state.value)
            if state.value == 1 {
                let done = DispatchSemaphore(value: 0)
                Thread.detachNewThread {
                    shared.value.action.onNext(.add(10))
                    done.signal()
                }
                done.wait()
            }
        })
        reactor.action.onNext(.add(1))
        #expect(values == [0, 1, 11])
        subscription.dispose()
    }

    @Test("B12 a state subscriber that unbinds during its delivery releases its closures outside the reactor's lock")
    func unbindingDuringADeliveryReleasesOutsideTheLock() {
        // Like a view whose last reference is its own binding: when it unbinds, the delivering thread holds the last
        // reference to its closures, and its death reads the reactor and disposes its other bindings.
        final class ViewLike {
            let bag = DisposeBag()
            let reactor: ProbeReactor
            let onDeinit: (Int) -> Void
            init(reactor: ProbeReactor, onDeinit: @escaping (Int) -> Void) {
                self.reactor = reactor
                self.onDeinit = onDeinit
            }
            deinit { onDeinit(reactor.currentState.value) }
        }
        let reactor = ProbeReactor()
        var valueAtDeinit: Int?
        var view: ViewLike? = ViewLike(reactor: reactor) { valueAtDeinit = $0 }
        var labels: [Int] = []
        reactor.state.map(\.value).subscribe(onNext: { labels.append($0) }).disposed(by: view!.bag)
        var binding: Disposable?
        binding = reactor.state.subscribe(onNext: { [view] state in
            if state.value == 1, let view {
                withExtendedLifetime(view) { binding?.dispose() }
            }
        })
        view = nil
        reactor.action.onNext(.add(1)) // hangs if the view dies under the lock
        reactor.action.onNext(.add(1))
        #expect(valueAtDeinit == 1)
        #expect(labels == [0, 1])
        #expect(reactor.currentState.value == 2)
    }

    /// The reactor's state relay walks its subscriber list without a reference of its own; a subscriber that changes
    /// the list during the walk must leave the walk intact. Forty new subscribers outgrow the list's capacity, so an
    /// in-place change would move it and free the one being walked (AddressSanitizer reports that in CI).
    @Test("A1 A3 state subscribers added and disposed during a state's delivery: the disposed get nothing more, the added only their replay")
    func subscribersChangingDuringAStateDelivery() {
        let reactor = ProbeReactor()
        var seen: [String: [Int]] = [:]
        var subscriptions: [String: Disposable] = [:]
        func watch(_ name: String) {
            subscriptions[name] = reactor.state.subscribe(onNext: { seen[name, default: []].append($0.value) })
        }
        let newcomers = (0..<40).map { "new \($0)" }
        subscriptions["changer"] = reactor.state.subscribe(onNext: { state in
            seen["changer", default: []].append(state.value)
            guard state.value == 1 else { return }
            subscriptions["b"]?.dispose() // later in the list than this subscriber
            newcomers.forEach(watch)
            subscriptions["c"]?.dispose()
            subscriptions["c"] = nil // the walked list now holds the last reference to it
        })
        for name in ["b", "c", "d"] { watch(name) }
        reactor.action.onNext(.add(1))
        reactor.action.onNext(.add(1))
        #expect(seen["changer"] == [0, 1, 2])
        #expect(seen["b"] == [0])
        #expect(seen["c"] == [0])
        #expect(seen["d"] == [0, 1, 2])
        for name in newcomers { #expect(seen[name] == [1, 2], "\(name)") }
        for subscription in subscriptions.values { subscription.dispose() }
    }

    @Test("B12 an object that dies with a replaced state may use the reactor in its deinit")
    func replacedStateDiesOutsideTheLock() {
        let reactor = ResourceReactor()
        reactor.action.onNext(.replace) // generation 1 holds resource 1
        reactor.action.onNext(.replace) // generation 2 replaces it: resource 1's last holder was the replay buffer
        reactor.action.onNext(.replace)
        #expect(reactor.deaths == ["1@2", "2@3"]) // resource number @ the generation current when it died
    }

    /// The loop's own state is the last holder of what `reduce` replaced when `transform(state:)` passes on states
    /// without it: the state before a mutation then dies in the loop as soon as `reduce` returned, before the new state
    /// is published and its subject's lock taken. The generations current at each death show that place: kept alive
    /// until after the publish, it would die at the next generation.
    @Test("B12 an object that dies with the loop's state before a mutation may use the reactor in its deinit")
    func previousStateDiesOutsideTheLock() {
        let reactor = ResourceReactor(publishesWithoutResource: true)
        reactor.action.onNext(.replace)
        reactor.action.onNext(.replace)
        reactor.action.onNext(.replace)
        #expect(reactor.deaths == ["1@1", "2@2"])
        #expect(reactor.currentState.generation == 3)
        #expect(reactor.currentState.resource == nil)
    }

    /// The loop ends its turn in the critical section that ends the last state's delivery: the action, the
    /// mutations and the streams that carried them die after it, once the lock is free.
    @Test("B12 actions, mutations and their streams may use the reactor when they die")
    func payloadsDieOutsideTheLock() {
        let reactor = PayloadReactor()
        reactor.action.onNext(.one(PayloadReactor.Payload("a", owner: reactor)))
        reactor.action.onNext(.three(PayloadReactor.Payload("b", owner: reactor)))
        #expect(reactor.currentState.reduced == 4)
        #expect(reactor.deaths == [
            "a mutation@1", "a@1",
            "b mutation 1@4", "b mutation 2@4", "b mutation 3@4", "b@4",
        ])
    }

    @Test("ReactorKit's README counter behaves the same under TestScheduler")
    func readmeCounter() {
        let scheduler = TestScheduler(resolution: .milliseconds(1))
        let reactor = ReadmeCounterReactor(delayScheduler: scheduler)
        let states = scheduler.record(reactor.state)
        reactor.action.onNext(.increase)
        scheduler.advance(by: .milliseconds(500))
        reactor.action.onNext(.decrease)
        // The increase's delayed `just` completes a tick after its element (RxSwift's `delay`), so its
        // `setLoading(false)` comes at 501, after the decrease's `setLoading(true)` at 500.
        scheduler.advance(by: .milliseconds(499))
        #expect(reactor.currentState == .init(value: 1, isLoading: false))
        scheduler.advance(by: .milliseconds(2))
        typealias S = ReadmeCounterReactor.State
        #expect(states.events == [
            .next(0, S(value: 0, isLoading: false)),
            .next(0, S(value: 0, isLoading: true)),
            .next(500, S(value: 1, isLoading: true)),
            .next(500, S(value: 1, isLoading: true)),
            .next(501, S(value: 1, isLoading: false)),
            .next(1000, S(value: 0, isLoading: false)),
            .next(1001, S(value: 0, isLoading: false)),
        ])
    }
}

final class WeakBox<Value: AnyObject> {
    weak var value: Value?
    init(_ value: Value) { self.value = value }
}

/// The two ways a pipeline is put together: with the default transforms its stages are joined directly; a transform
/// that changes its stream puts real streams between them. The rules must hold either way.
enum PipelineShape: CaseIterable, Sendable {
    case joinedStages
    case streamsBetweenStages

    func reactor() -> ProbeReactor {
        let reactor = ProbeReactor()
        if self == .streamsBetweenStages {
            reactor.globalMutations = .never()
            reactor.stateTransform = { $0.map { $0 } }
        }
        return reactor
    }
}
