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

// As in RxSwift, a subject's observer is the subject itself: `subject.asObserver()` can still be subscribed to.
extension PublishSubject: SubjectType {
    /// The subject itself.
    public func asObserver() -> PublishSubject<Element> { self }
}

extension BehaviorSubject: SubjectType {
    /// The subject itself.
    public func asObserver() -> BehaviorSubject<Element> { self }
}

extension ReplaySubject: SubjectType {
    /// The subject itself.
    public func asObserver() -> ReplaySubject<Element> { self }
}

extension AsyncSubject: SubjectType {
    /// The subject itself.
    public func asObserver() -> AsyncSubject<Element> { self }
}

/// A stream that starts sharing its source when `connect()` is called (`publish()`, `replay(_:)`, `multicast`).
public protocol ConnectableObservableType: ObservableType {
    /// Subscribes the source, so that its events reach the current subscribers; disposing the result disconnects.
    func connect() -> Disposable
}
