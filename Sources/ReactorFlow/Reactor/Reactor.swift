/// A reactor turns actions into state: `action` → `mutate(action:)` → `reduce(state:mutation:)` → `state`.
///
/// Threading, in five lines: actions may be sent from any thread; `reduce` runs one mutation at a time, each on the
/// state the previous one produced, and never under a lock. An action sent while another is being processed on
/// this thread (from `mutate`, `reduce` or a state subscriber) is queued and runs after it, in FIFO order. With the
/// default scheduler, a synchronous `mutate` has updated `currentState` by the time `action.onNext` returns;
/// `currentState` always changes before subscribers hear of it.
///
/// A conforming class declares its types, `initialState`, `mutate` and `reduce`, plus one line:
///
/// ```swift
/// final class CounterReactor: Reactor {
///     enum Action { case increase }
///     enum Mutation { case increaseValue }
///     struct State { var value = 0 }
///
///     let initialState = State()
///     let reactorStorage = ReactorStorage()
///
///     func mutate(action: Action) -> Observable<Mutation> { .just(.increaseValue) }
///     func reduce(state: State, mutation: Mutation) -> State {
///         var state = state
///         state.value += 1
///         return state
///     }
/// }
/// ```
public protocol Reactor: AnyObject {
    /// What the view asks for.
    associatedtype Action
    /// A change to the state; defaults to `Action`.
    associatedtype Mutation = Action
    /// What the view shows.
    associatedtype State

    /// The state before any mutation. Read once, when the pipeline is built.
    var initialState: State { get }

    /// Holds this reactor's pipeline; declare it as `let reactorStorage = ReactorStorage()`.
    /// Read on every use of `action`, `state` and `currentState`; it must always return the same instance.
    var reactorStorage: ReactorStorage { get }

    /// Where state is delivered. Read once, when the pipeline is built. The default,
    /// `CurrentThreadScheduler.instance`, delivers synchronously on the thread that produced the state.
    var scheduler: ImmediateSchedulerType { get }

    /// Called once per action, on the thread that processes it, to start the work the action asks for.
    /// The stream it returns is disposed when the reactor is deinitialised; an error ends that stream only.
    /// Defaults to `.just(action)` when `Mutation` is `Action`, and to `.empty()` otherwise.
    func mutate(action: Action) -> Observable<Mutation>

    /// Called once per action, just before `mutate(action:)`, to choose how its stream runs next to earlier
    /// streams of the same kind (`.merge`, `.latest`, `.first`, `.serial`). Defaults to `.merge`.
    func effectPolicy(for action: Action) -> EffectPolicy

    /// Called once per mutation, never concurrently, with the state the previous call returned. Keep it pure.
    func reduce(state: State, mutation: Mutation) -> State

    /// Called once, when the pipeline is built, with the stream of actions; return it changed (e.g. merged with
    /// global actions). Defaults to returning it unchanged.
    func transform(action: Observable<Action>) -> Observable<Action>

    /// Called once, when the pipeline is built, with the stream of mutations; the place to merge global streams.
    /// Defaults to returning it unchanged.
    func transform(mutation: Observable<Mutation>) -> Observable<Mutation>

    /// Called once, when the pipeline is built, with the stream of reduced states (starting with `initialState`).
    /// What it changes reaches `state` and `currentState` but is not fed back into `reduce`.
    /// Defaults to returning it unchanged.
    func transform(state: Observable<State>) -> Observable<State>
}

extension Reactor {
    /// The default: `CurrentThreadScheduler`, so states are delivered synchronously on the thread that reduced them.
    ///
    /// Compiled once: it is read once per reactor, and inlined, the shared instance's lazy initialisation and the
    /// existential's making would be in every reactor type's witness for it.
    public var scheduler: ImmediateSchedulerType {
        @inline(never) @_semantics("optimize.sil.specialize.generic.never") get { CurrentThreadScheduler.instance }
    }

    /// The default: the actions unchanged.
    @inlinable @inline(__always) public func transform(action: Observable<Action>) -> Observable<Action> { action }

    /// The default: the mutations unchanged.
    @inlinable @inline(__always) public func transform(mutation: Observable<Mutation>) -> Observable<Mutation> { mutation }

    /// The default: the states unchanged.
    @inlinable @inline(__always) public func transform(state: Observable<State>) -> Observable<State> { state }

    /// The default: the state unchanged, for reactors whose state never changes (rare; usually you implement it).
    public func reduce(state: State, mutation: Mutation) -> State { state }

    /// The default: no mutation, for reactors that only relay state (and for generic base classes whose subclasses
    /// add the work). When `Mutation` is `Action`, the default below applies instead.
    public func mutate(action: Action) -> Observable<Mutation> { .empty() }

    // `action`, `state` and `currentState` are specialised but never inlined: each use in the user's code is a call
    // (see ARCHITECTURE.md, "What may be `@inlinable`").

    /// Send actions here: `reactor.action.onNext(.refresh)` or `taps.bind(to: reactor.action)`.
    /// Error and completion events are ignored, so a binding can never end the reactor.
    @inlinable public var action: ActionSubject<Action> { @inline(never) get { reactorStorage.pipeline(for: self).action } }

    /// The state stream. Each new subscriber first receives the current state. It never fails or completes; when
    /// the reactor is deinitialised its subscribers receive nothing more, and the stream lets go of their closures
    /// (no `completed` is sent, as in ReactorKit: a chain bound onwards must not end what it feeds).
    @inlinable public var state: Observable<State> { @inline(never) get { reactorStorage.pipeline(for: self).state } }

    /// The latest state (as delivered by `transform(state:)`), or the stubbed state when the stub is enabled.
    @inlinable public var currentState: State { @inline(never) get { reactorStorage.pipeline(for: self).currentState } }
}

extension Reactor where Mutation == Action {
    /// The default when `Mutation` is `Action`: each action is its own mutation.
    public func mutate(action: Action) -> Observable<Mutation> { .just(action) }
}
