/// Something that can be read as a `ControlEvent`.
public protocol ControlEventType: ObservableType {
    /// This value as a `ControlEvent`.
    func asControlEvent() -> ControlEvent<Element>
}

/// RxCocoa's trait for the events of a control (taps, edits): no initial value, never an error, subscribed on the
/// main queue (`subscribe(on: ConcurrentMainScheduler.instance)`). A view exposes one so that a reactor's action can be
/// bound from it without knowing the control.
///
/// ```swift
/// extension Reactive where Base: LoginView {
///     var submit: ControlEvent<Void> { ControlEvent(events: base.submitTaps) }
/// }
/// loginView.rx.submit.map { .submit }.bind(to: reactor.action)
/// ```
public struct ControlEvent<PropertyType>: ControlEventType {
    /// The events' element type.
    public typealias Element = PropertyType

    let events: Observable<PropertyType>

    /// A control event of `events`, which must not fail.
    public init<Events: ObservableType>(events: Events) where Events.Element == Element {
        self.events = events.subscribe(on: ConcurrentMainScheduler.instance)
    }

    /// Subscribes `observer` to the events.
    public func subscribe<Observer: ObserverType>(_ observer: Observer) -> Disposable where Observer.Element == Element {
        events.subscribe(observer)
    }

    /// The events as an `Observable`.
    public func asObservable() -> Observable<Element> { events }

    /// The control event itself.
    public func asControlEvent() -> ControlEvent<Element> { self }

    /// The events as an `Infallible`; an error, which a control event must not send, ends them.
    public func asInfallible() -> Infallible<Element> { asInfallible(onErrorFallbackTo: .empty()) }

    /// The events as a `Driver`; an error, which a control event must not send, is reported through `Diagnostics`
    /// and ends them.
    public func asDriver() -> Driver<Element> {
        asDriver { error in
            Diagnostics.report(.bindingError, error: error, message: "a ControlEvent failed")
            return .empty()
        }
    }

    /// The events as a `Signal`; an error, which a control event must not send, is reported through `Diagnostics`
    /// and ends them.
    public func asSignal() -> Signal<Element> {
        asSignal { error in
            Diagnostics.report(.bindingError, error: error, message: "a ControlEvent failed")
            return .empty()
        }
    }
}
