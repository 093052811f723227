import Foundation

// Type names RxSwift 6 declares besides its types, so that code naming them (a constraint, a property's type)
// compiles unchanged. Each is the type RxSwift's is.

/// The integers an `interval` or a `timer` counts in: RxSwift's name for `FixedWidthInteger`.
///
/// ```swift
/// extension ObservableType where Element: RxAbstractInteger { … }
/// ```
public typealias RxAbstractInteger = FixedWidthInteger

extension PublishSubject {
    /// What `asObserver()` returns: the subject itself.
    public typealias SubjectObserverType = PublishSubject<Element>
}

extension BehaviorSubject {
    /// What `asObserver()` returns: the subject itself.
    public typealias SubjectObserverType = BehaviorSubject<Element>
}

extension ReplaySubject {
    /// What `asObserver()` returns: the subject itself.
    public typealias SubjectObserverType = ReplaySubject<Element>
}

extension AsyncSubject {
    /// What `asObserver()` returns: the subject itself.
    public typealias SubjectObserverType = AsyncSubject<Element>
}

extension SerialDispatchQueueScheduler {
    /// The scheduler's time: a date.
    public typealias Time = Date
    /// A span of the scheduler's time, in seconds.
    public typealias TimeInterval = Foundation.TimeInterval
}

extension ConcurrentDispatchQueueScheduler {
    /// The scheduler's time: a date.
    public typealias Time = Date
    /// A span of the scheduler's time, in seconds.
    public typealias TimeInterval = Foundation.TimeInterval
}

extension ConcurrentMainScheduler {
    /// The scheduler's time: a date.
    public typealias Time = Date
    /// A span of the scheduler's time, in seconds.
    public typealias TimeInterval = Foundation.TimeInterval
}
