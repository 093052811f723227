import Foundation
import ReactorFlow
import ReactorFlowTesting
import Testing

/// Appends letters to its state; each mutation is computed from `currentState` when the stream emits it, so a
/// mutation reduced late (after a later one was computed) loses a letter.
final class AppendingReactor: Reactor {
    /// How `mutate` builds its stream of synchronous mutations.
    enum StreamShape: String, CaseIterable, Sendable {
        case create, from, concatMap, flatMap, nestedConcat
    }

    /// Which transform is not the identity.
    enum Transform: String, CaseIterable, Sendable {
        case none, action, mutation, state
    }

    struct Action: Sendable {
        var letters: [String]
        var shape: StreamShape
    }

    typealias Mutation = [String]

    struct State: Equatable {
        var items: [String] = []
        var reductions = 0
    }

    let initialState = State()
    let reactorStorage = ReactorStorage()
    let policy: EffectPolicy
    let transform: Transform
    /// What `currentState` and the last delivered state held right after each emitting `onNext` returned.
    private(set) var seenAfterOnNext: [[String]] = []
    private(set) var lastDelivered: [String] = []

    init(policy: EffectPolicy = .merge, transform: Transform = .none) {
        self.policy = policy
        self.transform = transform
    }

    func effectPolicy(for action: Action) -> EffectPolicy { policy }

    private func appending(_ letter: String) -> Observable<Mutation> {
        Observable.create { [unowned self] observer in
            observer.onNext(currentState.items + [letter])
            seenAfterOnNext.append(currentState.items)
            observer.onCompleted()
            return Disposables.create()
        }
    }

    func mutate(action: Action) -> Observable<Mutation> {
        let letters = action.letters
        switch action.shape {
        case .create:
            return Observable.concat(letters.map(appending))
        case .from:
            return Observable.from(letters).map { [unowned self] in currentState.items + [$0] }
        case .concatMap:
            return Observable.from(letters).concatMap { [unowned self] letter in Observable.just(currentState.items + [letter]) }
        case .flatMap:
            return Observable.from(letters).flatMap { [unowned self] letter in
                Observable.deferred { .just(self.currentState.items + [letter]) }
            }
        case .nestedConcat:
            guard let first = letters.first else { return .empty() }
            return Observable.concat([appending(first), Observable.concat(letters.dropFirst().map(appending))])
        }
    }

    func reduce(state: State, mutation: Mutation) -> State {
        State(items: mutation, reductions: state.reductions + 1)
    }

    func transform(action: Observable<Action>) -> Observable<Action> {
        transform == .action ? action.map { $0 } : action
    }

    func transform(mutation: Observable<Mutation>) -> Observable<Mutation> {
        transform == .mutation ? mutation.map { $0 } : mutation
    }

    func transform(state: Observable<State>) -> Observable<State> {
        transform == .state ? state.map { $0 } : state
    }

    func watchDeliveries() -> Disposable {
        state.subscribe(onNext: { [unowned self] in lastDelivered = $0.items })
    }
}

@Suite("B5 reduce right after each mutation")
struct ReduceRightAfterMutationTests {
    static let policies: [EffectPolicy.Kind] = [.merge, .latest, .first, .serial]

    static func policy(_ kind: EffectPolicy.Kind) -> EffectPolicy {
        switch kind {
        case .merge: .merge
        case .latest: .latest
        case .first: .first
        case .serial: .serial
        }
    }

    @Test("B5 every synchronous stream's mutations are each reduced before the next is computed",
          arguments: AppendingReactor.StreamShape.allCases, AppendingReactor.Transform.allCases)
    func everyShapeAndTransform(shape: AppendingReactor.StreamShape, transform: AppendingReactor.Transform) {
        let reactor = AppendingReactor(transform: transform)
        let watching = reactor.watchDeliveries()
        reactor.action.onNext(.init(letters: ["a", "b"], shape: shape))
        reactor.action.onNext(.init(letters: ["c"], shape: shape))
        reactor.action.onNext(.init(letters: ["d", "e", "f"], shape: shape))
        #expect(reactor.currentState == .init(items: ["a", "b", "c", "d", "e", "f"], reductions: 6))
        #expect(reactor.lastDelivered == ["a", "b", "c", "d", "e", "f"])
        watching.dispose()
    }

    @Test("B5 the new state is current and delivered before the emitting onNext returns",
          arguments: [AppendingReactor.StreamShape.create, .nestedConcat], AppendingReactor.Transform.allCases)
    func reducedBeforeOnNextReturns(shape: AppendingReactor.StreamShape, transform: AppendingReactor.Transform) {
        let reactor = AppendingReactor(transform: transform)
        var delivered: [[String]] = []
        let watching = reactor.state.skip(1).subscribe(onNext: { delivered.append($0.items) })
        reactor.action.onNext(.init(letters: ["a", "b", "c"], shape: shape))
        #expect(reactor.seenAfterOnNext == [["a"], ["a", "b"], ["a", "b", "c"]])
        #expect(delivered == [["a"], ["a", "b"], ["a", "b", "c"]])
        watching.dispose()
    }

    @Test("B5 holds under every effect policy", arguments: policies, AppendingReactor.StreamShape.allCases)
    func everyPolicy(policy: EffectPolicy.Kind, shape: AppendingReactor.StreamShape) {
        let reactor = AppendingReactor(policy: Self.policy(policy))
        reactor.action.onNext(.init(letters: ["a", "b"], shape: shape))
        reactor.action.onNext(.init(letters: ["c", "d"], shape: shape))
        #expect(reactor.currentState.items == ["a", "b", "c", "d"])
        #expect(reactor.currentState.reductions == 4)
    }

    @Test("B5 with several threads sending, no mutation is computed from a stale state",
          arguments: [AppendingReactor.StreamShape.create, .concatMap, .from], [AppendingReactor.Transform.none, .mutation])
    func severalThreads(shape: AppendingReactor.StreamShape, transform: AppendingReactor.Transform) {
        let reactor = AppendingReactor(transform: transform)
        let shared = Shared(reactor)
        let rounds = 50
        onThreads(4) { thread in
            for round in 0..<rounds {
                shared.value.action.onNext(.init(letters: (0..<3).map { "\(thread).\(round).\($0)" }, shape: shape))
            }
        }
        let items = reactor.currentState.items
        #expect(items.count == 4 * rounds * 3)
        #expect(reactor.currentState.reductions == 4 * rounds * 3)
        // Each action's letters are reduced one after another, in order.
        for start in stride(from: 0, to: items.count, by: 3) {
            let prefix = items[start].dropLast(2)
            #expect(items[start..<start + 3].map { $0 } == (0..<3).map { "\(prefix).\($0)" })
        }
    }

    @Test("B5 and B6: an action sent from a state subscriber waits until the current stream has finished")
    func reentrantActionWaitsForTheStream() {
        let reactor = AppendingReactor()
        var sent = false
        let watching = reactor.state.subscribe(onNext: { state in
            if !sent && state.items == ["a"] {
                sent = true
                reactor.action.onNext(.init(letters: ["x"], shape: .create))
                #expect(reactor.currentState.items == ["a"], "queued, not run inside the delivery")
            }
        })
        reactor.action.onNext(.init(letters: ["a", "b"], shape: .create))
        #expect(reactor.currentState.items == ["a", "b", "x"])
        watching.dispose()
    }

    @Test("B5 and B6: a mutation a stream sends from a state subscriber keeps its place before the stream's later ones")
    func reentrantMutationKeepsItsPlace() {
        final class Relaying: Reactor {
            typealias Action = String
            typealias Mutation = String
            struct State: Equatable { var log: [String] = [] }
            let initialState = State()
            let reactorStorage = ReactorStorage()
            let echoes = PublishSubject<String>()

            func mutate(action: String) -> Observable<String> {
                // The echoes of "a" arrive from inside the state subscriber, between the stream's own mutations.
                Observable.merge(echoes.take(1), Observable.create { observer in
                    observer.onNext("a")
                    observer.onNext("b")
                    observer.onCompleted()
                    return Disposables.create()
                })
            }

            func reduce(state: State, mutation: String) -> State {
                var state = state
                state.log.append(mutation)
                return state
            }
        }
        let reactor = Relaying()
        let watching = reactor.state.subscribe(onNext: { state in
            if state.log == ["a"] { reactor.echoes.onNext("echo of a") }
        })
        reactor.action.onNext("go")
        #expect(reactor.currentState.log == ["a", "echo of a", "b"])
        watching.dispose()
    }

    @Test("B5 holds while another reactor's stream runs inside this one's, on the same thread")
    func nestedReactorsEachReduceInline() {
        /// Counts; its stream hears `ticks` and then reads its own state, while `other` runs a stream that ticks.
        final class Listening: Reactor {
            typealias Action = Void
            typealias Mutation = Int
            struct State { var count = 0 }
            let initialState = State()
            let reactorStorage = ReactorStorage()
            let ticks: PublishSubject<Void>
            let other: Ticking
            private(set) var seenAfterTick: [Int] = []

            init(ticks: PublishSubject<Void>, other: Ticking) {
                self.ticks = ticks
                self.other = other
            }

            func mutate(action: Void) -> Observable<Int> {
                Observable.create { [unowned self] observer in
                    let hearing = ticks.subscribe(onNext: { [unowned self] in
                        observer.onNext(currentState.count + 1)
                        seenAfterTick.append(currentState.count)
                    })
                    // `other` runs its mutation stream on this thread, inside this one's subscription.
                    other.action.onNext(())
                    observer.onNext(currentState.count + 10)
                    hearing.dispose()
                    observer.onCompleted()
                    return Disposables.create()
                }
            }

            func reduce(state: State, mutation: Int) -> State { State(count: mutation) }
        }
        /// Sends two ticks from a stream of its own, between two mutations of its own.
        final class Ticking: Reactor {
            typealias Action = Void
            typealias Mutation = Int
            struct State { var count = 0 }
            let initialState = State()
            let reactorStorage = ReactorStorage()
            let ticks: PublishSubject<Void>
            init(ticks: PublishSubject<Void>) { self.ticks = ticks }

            func mutate(action: Void) -> Observable<Int> {
                Observable.create { [unowned self] observer in
                    observer.onNext(currentState.count + 1)
                    ticks.onNext(())
                    ticks.onNext(())
                    observer.onNext(currentState.count + 1)
                    observer.onCompleted()
                    return Disposables.create()
                }
            }

            func reduce(state: State, mutation: Int) -> State { State(count: mutation) }
        }
        let ticks = PublishSubject<Void>()
        let ticking = Ticking(ticks: ticks)
        let listening = Listening(ticks: ticks, other: ticking)
        listening.action.onNext(())
        #expect(listening.seenAfterTick == [1, 2], "each tick's mutation reduced before the tick's onNext returned")
        #expect(listening.currentState.count == 12)
        #expect(ticking.currentState.count == 2)
    }
}

@Suite("B9 the state stream when the reactor dies")
struct ReactorDeathTests {
    @Test("B9 a reactor's death sends its state subscribers nothing, ends no subject they feed, and lets their closures go")
    func deathSendsNothing() {
        final class Witness {}
        var events: [Event<[String]>] = []
        weak var witnessSeen: Witness?
        let fed = PublishSubject<Int>()
        var fedEvents: [Event<Int>] = []
        let fedSubscription = fed.subscribe { fedEvents.append($0) }
        var kept: [Disposable] = []
        do {
            let reactor = AppendingReactor()
            let witness = Witness()
            witnessSeen = witness
            kept.append(reactor.state.map(\.items).subscribe { event in withExtendedLifetime(witness) { events.append(event) } })
            kept.append(reactor.state.map(\.reductions).bind(to: fed))
            reactor.action.onNext(.init(letters: ["a"], shape: .create))
        }
        #expect(events == [.next([]), .next(["a"])], "no completed, as in ReactorKit")
        #expect(fedEvents == [.next(0), .next(1)])
        #expect(witnessSeen == nil, "the dead reactor's stream keeps no subscriber alive")
        fed.onNext(9)
        #expect(fedEvents == [.next(0), .next(1), .next(9)], "the subject fed from the state stream still works")
        for subscription in kept { subscription.dispose() } // allowed, and does nothing
        fedSubscription.dispose()
    }
}
