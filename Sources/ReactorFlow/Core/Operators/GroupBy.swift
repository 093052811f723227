/// The elements of one key, from `groupBy`: an observable with its `key`.
public struct GroupedObservable<Key, Element>: ObservableType {
    /// What `groupBy`'s key selector returned for every element of this group.
    public let key: Key
    private let source: Observable<Element>

    /// A group of `source`'s elements under `key`.
    public init(key: Key, source: Observable<Element>) {
        self.key = key
        self.source = source
    }

    /// Subscribes `observer` to the group's elements.
    public func subscribe<Observer: ObserverType>(_ observer: Observer) -> Disposable where Observer.Element == Element {
        source.subscribe(observer)
    }

    /// The group's elements.
    public func asObservable() -> Observable<Element> { source }
}

extension ObservableType {
    /// Splits the stream into one group per key: the first element of a key sends its group, which then receives
    /// every element of that key. The source's end ends every group and the stream of groups; a thrown error fails
    /// them all. The source stays subscribed while the stream of groups or a group is subscribed.
    ///
    /// ```swift
    /// messages.groupBy { $0.channel }.flatMap { group in group.debounce(.seconds(1), scheduler: scheduler) }
    /// ```
    public func groupBy<Key: Hashable>(keySelector: @escaping (Element) throws -> Key) -> Observable<GroupedObservable<Key, Element>> {
        let source = asObservable()
        return .make { sink in
            let sourceSubscription = SingleAssignmentDisposable()
            let refCount = RefCountDisposable(disposable: sourceSubscription)
            var groups: [Key: PublishSubject<Element>] = [:]
            var order: [PublishSubject<Element>] = []

            func endAll(_ event: Event<Element>) {
                let all = order
                groups = [:]
                order = []
                for group in all { group.on(event) }
                switch event {
                case .error(let error): sink.onError(error)
                default: sink.onCompleted()
                }
            }

            sourceSubscription.setDisposable(source.subscribeInside(AnyObserver<Element> { event in
                switch event {
                case .next(let element):
                    let key: Key
                    do { key = try keySelector(element) } catch { return endAll(.error(error)) }
                    let group: PublishSubject<Element>
                    if let existing = groups[key] {
                        group = existing
                    } else {
                        group = PublishSubject()
                        groups[key] = group
                        order.append(group)
                        let shared = Observable<Element>.make { inner in
                            let kept = refCount.retain()
                            return Disposables.create(group.subscribeInside(inner), kept)
                        }
                        sink.onNext(GroupedObservable(key: key, source: shared))
                    }
                    group.onNext(element)
                case .error, .completed:
                    endAll(event)
                }
            }))
            return refCount
        }
    }
}
