import ReactorFlow
import Testing

/// A generic base reactor that declares no `mutate`: the default returns `.empty()`.
class GenericParentReactor<Tag>: Reactor {
    enum Action { case tap }
    typealias Mutation = Void
    typealias State = Int
    let initialState = 0
    let reactorStorage = ReactorStorage()
}

final class StringChildReactor: GenericParentReactor<String> {}

/// A generic base whose subclass inherits its `mutate` and `reduce`.
class CountingParentReactor<Tag>: Reactor {
    enum Action { case tap }
    typealias Mutation = Void
    typealias State = Int
    let initialState = 0
    let reactorStorage = ReactorStorage()
    func mutate(action: Action) -> Observable<Void> { .just(()) }
    func reduce(state: Int, mutation: Void) -> Int { state + 1 }
}

final class CountingChildReactor: CountingParentReactor<Int> {}

final class IdentityReactor: Reactor, IdentityHashable {
    typealias Action = Never
    struct State {}
    let initialState = State()
    let reactorStorage = ReactorStorage()
}

@Suite("B1 conformance: defaults and identity")
struct ConformanceTests {
    @Test("B1 without mutate, a reactor whose Mutation is not its Action makes no mutation")
    func defaultMutateIsEmpty() {
        let reactor = StringChildReactor()
        var events: [Event<Void>] = []
        _ = reactor.mutate(action: .tap).subscribe { events.append($0) }
        #expect(events.count == 1)
        #expect(events.first?.isCompleted == true)
        reactor.action.onNext(.tap)
        #expect(reactor.currentState == 0)
    }

    @Test("B1 a generic reactor subclass keeps one action subject and runs its parent's mutate and reduce")
    func genericSubclass() {
        let reactor = StringChildReactor()
        let before = ObjectIdentifier(reactor.action)
        _ = reactor.state
        #expect(ObjectIdentifier(reactor.action) == before)

        let counting = CountingChildReactor()
        #expect(counting.currentState == 0)
        counting.action.onNext(.tap)
        counting.action.onNext(.tap)
        #expect(counting.currentState == 2)
    }

    @Test("B1 IdentityEquatable and IdentityHashable compare and hash by identity")
    func identity() {
        let first = IdentityReactor()
        let same = first
        let other = IdentityReactor()
        #expect(first == same)
        #expect(first != other)
        #expect(first.hashValue == same.hashValue)
        #expect(Set([first, same, other]).count == 2)
        #expect([first: "a", other: "b"][same] == "a")
    }
}

@Suite("D1 a two-way binding to a reactor's state")
struct StateBindingTests {
    @Test("D1 reading gives the current value of the property; setting sends the action, and reduce decides")
    func bindingSendsActions() {
        let reactor = AppendingReactor()
        let letters = reactor.binding(get: \.items, send: { .init(letters: $0, shape: .create) })
        #expect(letters.wrappedValue == [])
        letters.wrappedValue = ["a", "b"]
        #expect(reactor.currentState.items == ["a", "b"])
        letters.set(["c"])
        #expect(letters.get() == ["a", "b", "c"], "the reducer appended: the binding shows the state, not what was set")

        let fixed = reactor.binding(get: \.reductions, send: .init(letters: ["z"], shape: .from))
        fixed.wrappedValue = 100
        #expect(reactor.currentState.items.last == "z")
        #expect(fixed.wrappedValue == 4)
    }
}
