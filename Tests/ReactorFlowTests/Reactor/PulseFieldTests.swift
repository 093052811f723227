@testable import ReactorFlow
import ReactorFlowTesting
import Testing

extension PulseField {
    /// The field as `PulseRunner.values` makes it, with the count's offset that `pulse(_:)` passes in.
    init(_ keyPath: KeyPath<State, Pulse<Value>>, sample: State) {
        self.init(keyPath, sample: sample, countOffset: Self.countOffset)
    }
}

/// States whose pulses lie in different places, and the offsets their stored pulses have.
private struct Login {
    var name = "someone"
    @Pulse var error: String?
    static var errorOffset: Int { MemoryLayout<Login>.offset(of: \Login._error)! }
}

private struct Screen {
    var count = 0
    @Pulse var first: Int = 0
    var title = "title"
    @Pulse var second: Int = 0
    var login = Login()
    @Pulse var message: String?
    /// A pulse kept as a plain stored property, without the wrapper: `MemoryLayout.offset(of:)` places it.
    var plain = Pulse(wrappedValue: 0)

    static var firstOffset: Int { MemoryLayout<Screen>.offset(of: \Screen._first)! }
    static var secondOffset: Int { MemoryLayout<Screen>.offset(of: \Screen._second)! }
    static var loginOffset: Int { MemoryLayout<Screen>.offset(of: \Screen.login)! }

    /// Returns a stored pulse under another name: read in place like `$first`.
    var firstAgain: Pulse<Int> { _first }
    /// Returns a pulse stored nowhere: read through the key path.
    var madeUp: Pulse<Int> { Pulse(wrappedValue: count) }
}

private final class ClassState {
    @Pulse var alert: String?
    init() {}
}

/// The value and update count read at the address the field's reader gives, as a reader of the pulse itself would.
private func readThroughAddress<State, Value>(_ field: PulseField<State, Value>, in state: State) -> (Value, UInt) {
    field.pulse.withValue(in: state) { ($0.pointee.value, $0.pointee.valueUpdatedCount) }
}

@Suite("Pulse (C): reading a pulse in place")
struct PulseFieldTests {
    @Test("C2 a stored pulse, nested in a sub-state, renamed or without the wrapper, is found at its stored offset")
    func storedPulsesAreFound() {
        let state = Screen()
        #expect(PulseField(\Screen.$first, sample: state).pulse.offset == Screen.firstOffset)
        #expect(PulseField(\Screen.$second, sample: state).pulse.offset == Screen.secondOffset)
        #expect(PulseField(\Screen.firstAgain, sample: state).pulse.offset == Screen.firstOffset)
        #expect(PulseField(\Screen.login.$error, sample: state).pulse.offset == Screen.loginOffset + Login.errorOffset)
        #expect(PulseField(\Screen.plain, sample: state).pulse.offset == MemoryLayout<Screen>.offset(of: \Screen.plain))
    }

    @Test("C2 a pulse stored nowhere, or in a class, is read through the key path")
    func otherKeyPathsFallBack() {
        var state = Screen()
        let madeUp = PulseField(\Screen.madeUp, sample: state)
        #expect(madeUp.pulse.offset == -1)
        state.count = 7
        #expect(readThroughAddress(madeUp, in: state) == (7, 0))

        let object = ClassState()
        let inClass = PulseField(\ClassState.$alert, sample: object)
        #expect(inClass.pulse.offset == -1)
        object.alert = "read through the key path"
        #expect(readThroughAddress(inClass, in: object) == ("read through the key path", 1))
    }

    @Test("C2 read in place, each pulse gives its own value and update count")
    func readsInPlace() {
        var state = Screen()
        state.first = 1
        state.second = 2
        state.second = 3
        state.login.error = "wrong password"
        state.message = "saved"
        let first = PulseField(\Screen.$first, sample: Screen())
        let second = PulseField(\Screen.$second, sample: Screen())
        let error = PulseField(\Screen.login.$error, sample: Screen())
        let message = PulseField(\Screen.$message, sample: Screen())
        #expect([first, second].map { readThroughAddress($0, in: state).0 } == [1, 3])
        #expect([first, second].map { readThroughAddress($0, in: state).1 } == [1, 2])
        #expect([error, message].map { readThroughAddress($0, in: state).1 } == [1, 1])
        #expect([error, message].map { readThroughAddress($0, in: state).0 } == ["wrong password", "saved"])
    }

    @Test("C2 the pulse's step reads the update count at its offset in the state, and the value where the pulse lies")
    func stepReadsAtOffsets() {
        var state = Screen()
        state.second = 2
        state.second = 3
        state.login.error = "wrong password"
        let second = PulseField(\Screen.$second, sample: Screen())
        let error = PulseField(\Screen.login.$error, sample: Screen())
        let madeUp = PulseField(\Screen.madeUp, sample: Screen())
        let counts = [second.countOffsetInState, error.countOffsetInState].map { offset in
            withUnsafeBytes(of: state) { $0.load(fromByteOffset: offset, as: UInt.self) }
        }
        #expect(counts == [2, 1])
        #expect(second.countOffsetInState == Screen.secondOffset + MemoryLayout<Pulse<Int>>.offset(of: \Pulse<Int>.updates)!)
        #expect(madeUp.countOffsetInState == -1)
        // The step reads the value at the pulse's own offset.
        #expect(MemoryLayout<Pulse<Int>>.offset(of: \Pulse<Int>.storedValue) == 0)
        #expect(MemoryLayout<Pulse<String?>>.offset(of: \Pulse<String?>.storedValue) == 0)
        #expect(withUnsafeBytes(of: state) { $0.load(fromByteOffset: second.pulse.offset, as: Int.self) } == 3)
    }

    @Test("C2 a pulse read through its key path emits once per assignment, through the reactor, in both deliveries")
    func keyPathPulseThroughReactor() {
        final class CountingReactor: Reactor {
            enum Action { case set(Int), bump }
            typealias Mutation = Action
            struct State {
                var count = 0
                var bumps = 0
                /// Stored nowhere: a new pulse whose update count is `bumps`.
                var bumped: Pulse<Int> {
                    var pulse = Pulse(wrappedValue: 0)
                    for _ in 0..<bumps { pulse.value = count }
                    return pulse
                }
            }
            let initialState = State()
            let reactorStorage = ReactorStorage()
            func mutate(action: Action) -> Observable<Action> { .just(action) }
            func reduce(state: State, mutation: Action) -> State {
                var state = state
                switch mutation {
                case .set(let count): state.count = count
                case .bump: state.bumps += 1
                }
                return state
            }
        }
        let reactor = CountingReactor()
        let (latest, _) = reactor.pulse(\.bumped).log()
        let (unconsumed, _) = reactor.pulse(\.bumped, delivery: .unconsumed).log()
        reactor.action.onNext(.set(4))
        reactor.action.onNext(.bump)
        reactor.action.onNext(.set(5))
        reactor.action.onNext(.bump)
        #expect(latest.elements == [0, 4, 5])
        #expect(unconsumed.elements == [4, 5])
    }

    @Test("C2 a pulse in a sub-state emits once per assignment, through the reactor")
    func nestedPulseThroughReactor() {
        final class LoginReactor: Reactor {
            enum Action { case fail(String), type(String) }
            typealias Mutation = Action
            struct State { var login = Login() }
            let initialState = State()
            let reactorStorage = ReactorStorage()
            func mutate(action: Action) -> Observable<Action> { .just(action) }
            func reduce(state: State, mutation: Action) -> State {
                var state = state
                switch mutation {
                case .fail(let message): state.login.error = message
                case .type(let name): state.login.name = name
                }
                return state
            }
        }
        let reactor = LoginReactor()
        let (errors, _) = reactor.pulse(\.login.$error).log()
        reactor.action.onNext(.fail("wrong password"))
        reactor.action.onNext(.type("someone else"))
        reactor.action.onNext(.fail("wrong password"))
        #expect(errors.elements == [nil, "wrong password", "wrong password"])
    }
}
