/// A stream that is also an observer: events sent to `asObserver()` reach its subscribers. `multicast(_:)` takes
/// any subject.
///
/// ```swift
/// func relay<Subject: SubjectType>(_ values: [Int], through subject: Subject) where Subject.Observer.Element == Int {
///     values.forEach(subject.asObserver().onNext)
/// }
/// ```
public protocol SubjectType: ObservableType {
    /// What `asObserver()` returns.
    associatedtype Observer: ObserverType

    /// The subject's input: events sent to it are delivered to the subject's subscribers.
    func asObserver() -> Observer
}

extension PublishSubject: SubjectType {}
extension BehaviorSubject: SubjectType {}
extension ReplaySubject: SubjectType {}
extension AsyncSubject: SubjectType {}

/// A stream that starts sharing its source when `connect()` is called (`publish()`, `replay(_:)`, `multicast`).
public protocol ConnectableObservableType: ObservableType {
    /// Subscribes the source, so that its events reach the current subscribers; disposing the result disconnects.
    func connect() -> Disposable
}
