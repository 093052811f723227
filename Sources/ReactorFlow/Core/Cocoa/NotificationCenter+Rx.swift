import Foundation

#if !canImport(ObjectiveC)
// Outside Apple's platforms `NotificationCenter` is not an `NSObject`, so it does not get `.rx` from it.
extension NotificationCenter: ReactiveCompatible {}
#endif

extension Reactive where Base: NotificationCenter {
    /// The notifications posted to the center with `name` (any, for `nil`) from `object` (any, for `nil`), as a
    /// stream that never ends; each subscription adds an observer to the center and removes it when disposed.
    ///
    /// ```swift
    /// let signOuts = NotificationCenter.default.rx.notification(.userDidSignOut).map { _ in Mutation.reset }
    /// ```
    public func notification(_ name: Notification.Name?, object: AnyObject? = nil) -> Observable<Notification> {
        let center = base
        return Observable.make { [weak object] sink in
            // Posts may come from several threads at once: they reach the subscriber one at a time (A2).
            let observer = SerializedObserver(AnyObserver(sink))
            let token = center.addObserver(forName: name, object: object, queue: nil) { notification in
                observer.onNext(notification)
            }
            return Disposables.create { center.removeObserver(token) }
        }
    }
}
