/// A one-shot event kept in state: every assignment is an event, even of an equal value.
///
/// ```swift
/// struct State {
///     @Pulse var alert: String?
/// }
/// reactor.pulse(\.$alert).compactMap { $0 }.subscribe(onNext: showAlert)
/// ```
@propertyWrapper
public struct Pulse<Value> {
    /// `value`'s storage. Assigning a pulse happens in `reduce`, once per mutation that sets it: stored behind inlinable
    /// accessors, the assignment is specialised there rather than a call to a generic setter with type metadata.
    @usableFromInline var storedValue: Value
    /// `valueUpdatedCount`'s storage; `PulseField` reads it in place, by its offset.
    @usableFromInline var updates: UInt = 0

    /// The current value; every assignment counts as a new event.
    public var value: Value {
        @inlinable get { storedValue }
        @inlinable set {
            storedValue = newValue
            updates &+= 1
        }
    }

    /// How many times `value` was assigned; wraps around instead of overflowing.
    public internal(set) var valueUpdatedCount: UInt {
        @inlinable get { updates }
        set { updates = newValue }
    }

    /// Wraps the initial value; it counts as no assignment (`valueUpdatedCount` is 0).
    @inlinable
    public init(wrappedValue: Value) {
        storedValue = wrappedValue
    }

    /// The latest value; every assignment, even of an equal value, is a new update for `pulse(_:)`.
    public var wrappedValue: Value {
        @inlinable get { storedValue }
        @inlinable set { value = newValue }
    }

    /// The pulse itself, for `reactor.pulse(\.$alert)`.
    @inlinable
    public var projectedValue: Pulse<Value> { self }
}

extension Pulse: CustomReflectable {
    /// The public properties, as a reflecting tool (`dump`, a state diff) shows them.
    public var customMirror: Mirror {
        Mirror(self, children: ["value": storedValue, "valueUpdatedCount": updates], displayStyle: .struct)
    }
}

/// Any pulse, whatever its value type: lets tools (the reactor tester, a differ) find pulses in a state by reflection.
public protocol AnyPulse {
    /// The current value, type-erased.
    var anyValue: Any { get }
    /// How many times the value was assigned.
    var valueUpdatedCount: UInt { get }
}

extension Pulse: AnyPulse {
    /// The latest value, type-erased.
    public var anyValue: Any { value }
}

extension Pulse: Sendable where Value: Sendable {}
extension Pulse: Equatable where Value: Equatable {}
extension Pulse: Hashable where Value: Hashable {}

/// What a new `pulse` subscriber receives first.
public enum PulseDelivery: Sendable {
    /// The current value at once, including a never-assigned initial value (as in ReactorKit).
    case latest
    /// The current value only if it was assigned and no subscriber has received that assignment yet; afterwards,
    /// only new assignments. What a view that re-binds needs so an alert is not shown twice.
    case unconsumed
}

extension Reactor {
    /// The values of the pulse at `keyPath`, once per assignment; changes of other properties emit nothing.
    ///
    /// `keyPath` names a pulse of the state, as `\.$alert` or `\.login.$error` do: a stored pulse is then read in
    /// place (see `PulseField`). A computed key path that returns one stored pulse for some states and another for
    /// others is not supported.
    ///
    /// ```swift
    /// reactor.pulse(\.$route, delivery: .unconsumed)
    ///     .compactMap { $0 }
    ///     .subscribe(onNext: navigate)
    /// ```
    @inlinable
    public func pulse<Value>(_ keyPath: KeyPath<State, Pulse<Value>>, delivery: PulseDelivery = .latest) -> Observable<Value> {
        // Fetched once, not per state; it holds no reference to the reactor or its storage, so subscriptions do not
        // keep the pipeline (and its running mutation streams) alive after the reactor died. The field's place in the
        // state is the same in every state, so any state shows it: the initial one, which the pipeline keeps, rather
        // than `currentState`, whose reading (a lock and the relay's buffer) an app would otherwise carry for this.
        let ledger = reactorStorage.pulseLedger(for: keyPath)
        let field = PulseField(keyPath, sample: reactorStorage.pipeline(for: self).initialState)
        return state.lift(PulseStep(field: field, delivery: delivery, ledger: ledger))
    }
}

/// `pulse(_:delivery:)`'s work on each state: forwards the pulse's value when its update count moved.
@usableFromInline
struct PulseStep<State, Value>: OperatorStep {
    @usableFromInline let field: PulseField<State, Value>
    @usableFromInline let delivery: PulseDelivery
    @usableFromInline let ledger: PulseLedger
    /// The update count of the last state seen; nil before the first.
    @usableFromInline var lastCount: UInt?

    @inlinable
    init(field: PulseField<State, Value>, delivery: PulseDelivery, ledger: PulseLedger) {
        self.field = field
        self.delivery = delivery
        self.ledger = ledger
    }

    /// Only the pulse's address is found for the state's type; the rest, when its update count moved, is done for
    /// the value's type alone (`PulseEmission`), so reactors whose pulses hold the same type share that code. Never
    /// inlined: a chain's two handlers (for events, for elements) would each carry a copy.
    @inlinable @inline(never)
    mutating func receive(_ state: State, sendingTo output: OperatorOutput<Value>) {
        let count = field.pulse.withValue(in: state) { $0.pointee.valueUpdatedCount }
        if let lastCount, count == lastCount { return } // the common case: the pulse was not assigned
        let isFirst = lastCount == nil
        lastCount = count
        emit(from: state, count: count, isFirst: isFirst, to: output)
    }

    /// Apart from `receive`, which sets `lastCount`: a closure that both read this step's constants and set it made
    /// the compiler copy the constants, two reference-count pairs per emission.
    @inlinable
    func emit(from state: State, count: UInt, isFirst: Bool, to output: OperatorOutput<Value>) {
        field.pulse.withValue(in: state) { pulse in
            PulseEmission.emit(pulse, count: count, isFirst: isFirst, delivery: delivery, ledger: ledger, to: output)
        }
    }
}

/// What `PulseStep` does once a pulse's update count moved, for a pulse at an address: specialised for the value's
/// type only, and never inlined, so one copy serves every state type with a pulse of that type.
@usableFromInline
enum PulseEmission<Value> {
    @inlinable @inline(never)
    static func emit(_ pulse: UnsafePointer<Pulse<Value>>, count: UInt, isFirst: Bool, delivery: PulseDelivery,
                     ledger: PulseLedger, to output: OperatorOutput<Value>) {
        // A new `.unconsumed` subscriber skips an assignment that is the initial value or that someone already had.
        if isFirst && delivery == .unconsumed && (count == 0 || ledger.isConsumed(count)) { return }
        ledger.markConsumed(count)
        output.onNext(pulse.pointee.value)
    }
}
