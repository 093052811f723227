/// Something that can be read as a `ControlProperty`.
public protocol ControlPropertyType: ObservableType, ObserverType {
    /// This value as a `ControlProperty`.
    func asControlProperty() -> ControlProperty<Element>
}

/// RxCocoa's trait for a value a control shows and the user edits (a text field's text): its values, subscribed on the
/// main queue (`subscribe(on: ConcurrentMainScheduler.instance)`), and an observer that sets it. Elements bound to it
/// are passed to its sink; an error is reported through `Diagnostics` and not passed on.
///
/// ```swift
/// let text = ControlProperty(values: field.edits, valueSink: Binder(field) { $0.text = $1 })
/// text.orEmpty.map(Reactor.Action.search).bind(to: reactor.action)
/// reactor.state.map(\.query).bind(to: text)
/// ```
public struct ControlProperty<PropertyType>: ControlPropertyType {
    /// The property's value type.
    public typealias Element = PropertyType

    let values: Observable<PropertyType>
    let valueSink: AnyObserver<PropertyType>

    /// A control property reading `values` (which must not fail) and writing through `valueSink`.
    public init<Values: ObservableType, Sink: ObserverType>(values: Values, valueSink: Sink)
        where Element == Values.Element, Element == Sink.Element {
        self.values = values.subscribe(on: ConcurrentMainScheduler.instance)
        self.valueSink = valueSink.asObserver()
    }

    /// Subscribes `observer` to the values.
    public func subscribe<Observer: ObserverType>(_ observer: Observer) -> Disposable where Observer.Element == Element {
        values.subscribe(observer)
    }

    /// The values after the first (the control's current one): the changes.
    public var changed: ControlEvent<PropertyType> { ControlEvent(events: values.skip(1)) }

    /// The values as an `Observable`.
    public func asObservable() -> Observable<Element> { values }

    /// The control property itself.
    public func asControlProperty() -> ControlProperty<Element> { self }

    /// Passes an element or the end to the sink; an error is reported through `Diagnostics` instead.
    public func on(_ event: Event<Element>) {
        if case .error(let error) = event {
            Diagnostics.report(.bindingError, error: error, message: "an error reached a ControlProperty")
            return
        }
        valueSink.on(event)
    }

    /// The values as a `Driver`; an error, which a control property must not send, is reported through
    /// `Diagnostics` and ends them.
    public func asDriver() -> Driver<Element> {
        asDriver { error in
            Diagnostics.report(.bindingError, error: error, message: "a ControlProperty failed")
            return .empty()
        }
    }
}

extension ControlPropertyType where Element == String? {
    /// The property with `nil` read as the empty string.
    public var orEmpty: ControlProperty<String> {
        let original = asControlProperty()
        return ControlProperty(values: original.values.map { $0 ?? "" }, valueSink: original.valueSink.mapObserver { $0 })
    }
}
