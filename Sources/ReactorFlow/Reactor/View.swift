/// A view bound to a reactor. As in ReactorKit, a conforming class declares only `var disposeBag` and
/// `func bind(reactor:)`; the framework provides `reactor`.
///
/// The reactor is kept by the view's dispose bag, so it lives exactly as long as the binding (no global table,
/// no Objective-C runtime).
///
/// ```swift
/// final class CounterView: View {
///     var disposeBag = DisposeBag()
///     func bind(reactor: CounterReactor) {
///         reactor.state.map(\.value).subscribe(onNext: { print($0) }).disposed(by: disposeBag)
///     }
/// }
/// ```
@MainActor
public protocol View: AnyObject {
    /// The reactor type this view binds to.
    associatedtype Reactor: ReactorFlow.Reactor

    /// Holds the bindings (and the reactor); replaced on every `reactor` assignment.
    var disposeBag: DisposeBag { get set }

    /// Called once each time a non-nil reactor is assigned, with a fresh `disposeBag`.
    func bind(reactor: Reactor)
}

extension View {
    /// The bound reactor. Assigning disposes the old bindings, installs a new bag and calls `bind(reactor:)`
    /// once; assigning `nil` only unbinds. Replacing `disposeBag` by hand also unbinds and forgets the reactor.
    public var reactor: Reactor? {
        get { disposeBag.attached as? Reactor }
        set {
            let previous = disposeBag
            let bag = DisposeBag()
            bag.attach(newValue)
            disposeBag = bag
            previous.dispose()
            if let newValue { bind(reactor: newValue) }
        }
    }
}
