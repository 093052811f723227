/// An observer that applies each element to a target it holds weakly, on a scheduler (the main one by default): the
/// usual end of a binding to a view. Completion is ignored; an error is reported through `Diagnostics`, never
/// applied.
///
/// ```swift
/// let title = Binder(label) { label, text in label.text = text }
/// reactor.state.map(\.title).bind(to: title).disposed(by: disposeBag)
/// ```
public struct Binder<Value>: ObserverType {
    private let binding: (Event<Value>) -> Void

    /// A binder that calls `binding(target, value)` on `scheduler` for each value while `target` lives.
    public init<Target: AnyObject>(_ target: Target, scheduler: ImmediateSchedulerType = MainScheduler(),
                                   binding: @escaping (Target, Value) -> Void) {
        weak let weakTarget = target
        self.binding = { event in
            switch event {
            case .next(let value):
                _ = scheduler.schedule {
                    if let target = weakTarget { binding(target, value) }
                }
            case .error(let error):
                Diagnostics.report(.bindingError, error: error, message: "an error reached a Binder of \(Target.self)")
            case .completed:
                break
            }
        }
    }

    /// Applies `event`'s element, if any.
    public func on(_ event: Event<Value>) {
        binding(event)
    }
}
