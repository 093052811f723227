/// A two-way binding to one property of a reactor's state: reading gives the property's current value, setting
/// sends an action. SwiftUI's `Binding` wraps it in one line, and tests can drive it without SwiftUI:
///
/// ```swift
/// TextField("Email", text: Binding(model.binding(get: \.email, send: { .setEmail($0) })))
///
/// extension Binding {
///     init(_ binding: StateBinding<Value>) { self.init(get: binding.get, set: binding.set) }
/// }
/// ```
public struct StateBinding<Value> {
    /// Reads the value; called whenever the view reads the binding.
    public let get: () -> Value
    /// Sends the action for a new value; called when the view sets the binding.
    public let set: (Value) -> Void

    /// A binding over any reader and writer.
    public init(get: @escaping () -> Value, set: @escaping (Value) -> Void) {
        self.get = get
        self.set = set
    }

    /// The value: reading calls `get`, assigning calls `set`.
    public var wrappedValue: Value {
        get { get() }
        nonmutating set { set(newValue) }
    }
}

extension Reactor {
    /// A binding whose value is `currentState[keyPath: keyPath]` and whose setter sends `action(newValue)` (as
    /// ReactorKit's `binding(get:send:)`). Setting it does not change the state by itself: `reduce` does, as for
    /// any action.
    public func binding<Value>(get keyPath: KeyPath<State, Value>, send action: @escaping (Value) -> Action) -> StateBinding<Value> {
        StateBinding(get: { self.currentState[keyPath: keyPath] }, set: { self.action.onNext(action($0)) })
    }

    /// A binding whose value is `currentState[keyPath: keyPath]` and whose setter sends `action`, whatever the new
    /// value (a toggle that means "dismiss", say).
    public func binding<Value>(get keyPath: KeyPath<State, Value>, send action: Action) -> StateBinding<Value> {
        StateBinding(get: { self.currentState[keyPath: keyPath] }, set: { _ in self.action.onNext(action) })
    }
}

@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
extension ObservedReactor {
    /// `Reactor.binding(get:send:)` read through this model, so that a SwiftUI view reading the binding is
    /// re-rendered when that property changes.
    public func binding<Value>(get keyPath: KeyPath<R.State, Value>, send action: @escaping (Value) -> R.Action) -> StateBinding<Value> {
        StateBinding(get: { self[dynamicMember: keyPath] }, set: { self.send(action($0)) })
    }

    /// `Reactor.binding(get:send:)` with one action whatever the new value, read through this model.
    public func binding<Value>(get keyPath: KeyPath<R.State, Value>, send action: R.Action) -> StateBinding<Value> {
        binding(get: keyPath, send: { _ in action })
    }
}
