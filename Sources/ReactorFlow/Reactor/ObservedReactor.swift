import Observation

/// A reactor as Observation-based state, so a SwiftUI view can use it directly.
///
/// Read state through it (`model.isLoading`, or `model.state`) and SwiftUI re-renders exactly when what it read
/// changes: each state property read through the wrapper is tracked on its own, and a new state notifies only the
/// properties whose values changed. State is applied on the main queue.
///
/// ```swift
/// struct CounterScreen: SwiftUI.View {
///     @State var model = ObservedReactor(CounterReactor())
///     var body: some SwiftUI.View {
///         Button("\(model.value)") { model.send(.increase) }
///             .refreshable { await model.perform(.refresh) }
///     }
/// }
/// ```
///
/// Observation needs macOS 14, iOS 17, tvOS 17 or watchOS 10 on Apple's systems.
@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
@MainActor
@dynamicMemberLookup
public final class ObservedReactor<R: Reactor>: Observation.Observable {
    /// The wrapped reactor.
    public let reactor: R
    private let registrar = ObservationRegistrar()
    private var current: R.State
    private var tracked: [AnyKeyPath: (R.State, R.State) -> Bool] = [:]
    private var notifiers: [AnyKeyPath: (ObservedReactor) -> Void] = [:]
    private let bag = DisposeBag()

    /// Starts following `reactor`'s state.
    public init(_ reactor: R) {
        self.reactor = reactor
        current = reactor.currentState
        reactor.state.observe(on: MainScheduler.instance)
            .subscribe(onNext: { [weak self] state in self?.apply(state) })
            .disposed(by: bag)
    }

    /// The whole state; reading it tracks every change.
    public var state: R.State {
        registrar.access(self, keyPath: \.state)
        return current
    }

    /// One property of the state; reading it tracks changes of that property only.
    public subscript<Value>(dynamicMember keyPath: KeyPath<R.State, Value>) -> Value {
        let member = (\ObservedReactor.current).appending(path: keyPath)
        if tracked[keyPath] == nil {
            let property = KeyPathReader(keyPath)
            tracked[keyPath] = { old, new in !valuesEqual(property.read(old), property.read(new)) }
            notifiers[keyPath] = { model in model.registrar.withMutation(of: model, keyPath: member) {} }
        }
        registrar.access(self, keyPath: member)
        return current[keyPath: keyPath]
    }

    /// Sends `action` to the reactor.
    public func send(_ action: R.Action) {
        reactor.action.onNext(action)
    }

    /// Sends `action` and returns when its mutation streams have finished (for `.task` and `.refreshable`).
    public func perform(_ action: R.Action) async {
        await reactor.send(action)
    }

    private func apply(_ state: R.State) {
        let old = current
        let changed = tracked.filter { $0.value(old, state) }.map(\.key)
        registrar.withMutation(of: self, keyPath: \.state) {
            current = state
        }
        for keyPath in changed { notifiers[keyPath]?(self) }
    }
}

private func valuesEqual<Value>(_ lhs: Value, _ rhs: Value) -> Bool {
    guard let equatable = lhs as? any Equatable else { return false }
    return equatable.isEqualForObservation(rhs)
}

extension Equatable {
    fileprivate func isEqualForObservation(_ other: Any) -> Bool {
        guard let other = other as? Self else { return false }
        return self == other
    }
}
