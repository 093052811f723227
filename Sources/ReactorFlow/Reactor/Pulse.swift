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
    /// The first stored property, so that it lies where the pulse does (`PulseRunner` reads it there).
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
    @inlinable @inline(never)
    public func pulse<Value>(_ keyPath: KeyPath<State, Pulse<Value>>, delivery: PulseDelivery = .latest) -> Observable<Value> {
        PulseRunner.values(at: keyPath, of: reactorStorage.pipeline(for: self), storage: reactorStorage,
                           countOffset: PulseField<State, Value>.countOffset, delivery: delivery,
                           emit: PulseEmission<Value>.emit)
    }
}

/// One `pulse(_:delivery:)` subscription's work on each state: forwards the pulse's value when its update count moved.
/// Built like an operator of `lift(_:)` (see `StepRunner`), but with its work on each element compiled once.
@usableFromInline
final class PulseRunner<State, Value> {
    @usableFromInline let field: PulseField<State, Value>
    @usableFromInline @exclusivity(unchecked) var updates: PulseUpdates
    @usableFromInline let output: OperatorOutput<Value>
    /// `PulseEmission<Value>.emit`, specialised for the value's type (made where the subscription is, in code that
    /// knows it): called from `receive`, compiled once, it sends the value without copying it through the value's
    /// type at run time.
    @usableFromInline let emit: (UnsafePointer<Value>, OperatorOutput<Value>) -> Void

    @inlinable
    init(field: PulseField<State, Value>, updates: PulseUpdates, output: OperatorOutput<Value>,
         emit: @escaping (UnsafePointer<Value>, OperatorOutput<Value>) -> Void) {
        self.field = field
        self.updates = updates
        self.output = output
        self.emit = emit
    }

    /// The stream `pulse(_:delivery:)` returns, from `pipeline`'s states. Compiled once: it runs once per `pulse(_:)`
    /// call, and a reactor type's `pulse(_:)` then carries only the calls that need its types (the pipeline, built by
    /// specialised code if it is not yet, the count's offset within a pulse, which folds to a constant there, and
    /// `emit`, made for the value's type).
    @usableFromInline @inline(never) @_semantics("optimize.sil.specialize.generic.never")
    static func values<R: Reactor>(at keyPath: KeyPath<State, Pulse<Value>>, of pipeline: ReactorPipeline<R>,
                                   storage: ReactorStorage, countOffset: Int, delivery: PulseDelivery,
                                   emit: @escaping (UnsafePointer<Value>, OperatorOutput<Value>) -> Void) -> Observable<Value>
    where R.State == State {
        // The ledger is fetched once, not per state; it holds no reference to the reactor or its storage, so
        // subscriptions do not keep the pipeline (and its running mutation streams) alive after the reactor died. The
        // field's place in the state is the same in every state, so any state shows it: the initial one, which the
        // pipeline keeps, rather than `currentState`, whose reading (a lock and the relay's buffer) would cost more.
        values(at: keyPath, of: pipeline.state, sample: pipeline.initialState, countOffset: countOffset,
               delivery: delivery, ledger: storage.pulseLedger(for: keyPath), emit: emit)
    }

    /// The first operator of a fused chain over `states`, whose handlers each subscription makes with a runner of its
    /// own. Compiled once, and generic over the state and the value alone: the handlers, made here, then take no
    /// reactor type along to each call. The runtime looks up the chain's type here, once per `pulse(_:)` call. The
    /// handlers call code compiled once (`receive`, and `on`), which hands each state on by address.
    @usableFromInline @inline(never) @_semantics("optimize.sil.specialize.generic.never")
    static func values(at keyPath: KeyPath<State, Pulse<Value>>, of states: StateRelay<State>, sample: State,
                       countOffset: Int, delivery: PulseDelivery, ledger: PulseLedger,
                       emit: @escaping (UnsafePointer<Value>, OperatorOutput<Value>) -> Void) -> Observable<Value> {
        let field = PulseField(keyPath, sample: sample, countOffset: countOffset)
        return states.lifted(ChainHeadMaker { output, wantsElements in
            let runner = PulseRunner(field: field, updates: PulseUpdates(delivery: delivery, ledger: ledger), output: output,
                                     emit: emit)
            return ChainHead(events: { runner.on($0) }, elements: wantsElements ? ElementHandler { runner.receive($0) } : nil)
        })
    }

    /// Each event, where the subscriber takes no elements alone (`observe(on:)`, for one). Compiled once: taking the
    /// state out of the event looks up the event's type at run time, a small cost beside such a subscriber's own.
    @usableFromInline @inline(never) @_semantics("optimize.sil.specialize.generic.never")
    func on(_ event: Event<State>) {
        switch event {
        case .next(let state): receive(state)
        case .error(let error): output.endUnspecialized(with: error)
        case .completed: output.endUnspecialized(with: nil)
        }
    }

    /// Called with each state, never concurrently with itself (A2). Compiled once, not for each state type, at no
    /// cost per state: the state and the pulse's value stay where they are and are handed on by address (the value
    /// to the next operator's element handler), the update count and the value are read at their offsets in the
    /// state, and no type is looked up at run time (`State` and `Value` come with this object's class). Without
    /// `specialize.generic.never`, cross-module optimisation would copy this into the app and specialise it there.
    @usableFromInline @inline(never) @_semantics("optimize.sil.specialize.generic.never")
    func receive(_ state: State) {
        guard field.countOffsetInState >= 0 else { return receiveThroughKeyPath(state) }
        // One call for both reads: `withUnsafePointer` stays a generic call here, a few dozen instructions.
        withUnsafePointer(to: state) {
            let state = UnsafeRawPointer($0)
            // The common case: the pulse was not assigned.
            guard updates.isDue(state.load(fromByteOffset: field.countOffsetInState, as: UInt.self)) else { return }
            // The value is the pulse's first stored property, so it lies where the pulse does.
            emit(state.advanced(by: field.pulse.offset).assumingMemoryBound(to: Value.self), output)
        }
    }

    /// `receive` for a pulse that has no offset in the state (see `PulseField`): read through the key path, which
    /// looks up the pulse's type at run time, so apart from `receive`.
    @inline(never)
    func receiveThroughKeyPath(_ state: State) {
        let pulse = state[keyPath: field.pulse.keyPath]
        if updates.isDue(pulse.valueUpdatedCount) { output.onNext(pulse.storedValue) }
    }
}

/// A pulse subscription's bookkeeping: which update it saw last, and whether the next one goes out.
@usableFromInline
struct PulseUpdates {
    @usableFromInline let delivery: PulseDelivery
    @usableFromInline let ledger: PulseLedger
    /// The update count of the last state seen; nil before the first.
    @usableFromInline var lastCount: UInt?

    @inlinable
    init(delivery: PulseDelivery, ledger: PulseLedger) {
        self.delivery = delivery
        self.ledger = ledger
    }

    /// Whether the pulse's value goes out, given its update count in the latest state: when the count moved (or
    /// this is the first state), unless a new `.unconsumed` subscriber would get an assignment that is the initial
    /// value or that someone already had. Always inlined, also into code compiled once, where the optimiser inlines
    /// no generic call on its own.
    @inlinable @inline(__always)
    mutating func isDue(_ count: UInt) -> Bool {
        if let lastCount, count == lastCount { return false }
        let isFirst = lastCount == nil
        lastCount = count
        if isFirst && delivery == .unconsumed && (count == 0 || ledger.isConsumed(count)) { return false }
        ledger.markConsumed(count)
        return true
    }
}

/// Sends a pulse's value, at an address: specialised for the value's type only, and never inlined, so one copy
/// serves every state type with a pulse of that type.
@usableFromInline
enum PulseEmission<Value> {
    @inlinable @inline(never)
    static func emit(_ value: UnsafePointer<Value>, to output: OperatorOutput<Value>) {
        output.onNext(value.pointee)
    }
}
