/// Replaces a reactor's logic in view tests: actions are recorded instead of processed, and the state is whatever
/// the test sets.
///
/// ```swift
/// reactor.isStubEnabled = true           // before the reactor is first used
/// view.reactor = reactor
/// reactor.stub.state.value = State(isLoading: true)
/// view.tapRefresh()
/// #expect(reactor.stub.actions.last == .refresh)
/// ```
public final class Stub<Reactor: ReactorFlow.Reactor>: @unchecked Sendable { // `recorded` is guarded by `lock`
    /// Its lock's word (see `InlineLock`): the first stored property.
    private var lockWord = 0
    /// What the view sees; `currentState` follows it.
    public let state: StateRelay<Reactor.State>
    /// What the view sends to; every action is recorded in `actions`.
    public let action = ActionSubject<Reactor.Action>()
    private var lock: InlineLock { InlineLock(of: self) }
    private var recorded: [Reactor.Action] = []

    init(initialState: Reactor.State) {
        state = StateRelay(value: initialState)
    }

    /// Every action sent while the stub was enabled, in order.
    public var actions: [Reactor.Action] { lock.withLock { recorded } }

    func record(_ action: Reactor.Action) {
        lock.withLock { recorded.append(action) }
    }
}

extension Reactor {
    /// When true (set it before the reactor is first used), `mutate` and `reduce` never run: actions go to
    /// `stub.actions` and the state is `stub.state`.
    public var isStubEnabled: Bool {
        get { reactorStorage.isStubEnabled }
        set { reactorStorage.isStubEnabled = newValue }
    }

    /// The stub of this reactor, created on first use with `initialState`.
    public var stub: Stub<Self> { reactorStorage.stub(for: self) }
}
