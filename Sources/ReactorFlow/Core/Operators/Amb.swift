extension ObservableType {
    /// Mirrors whichever of the two streams sends an event first (an element, an error or a completion), and
    /// disposes the other.
    ///
    /// ```swift
    /// primaryServer.amb(mirrorServer)
    /// ```
    public func amb<Other: ObservableType>(_ other: Other) -> Observable<Element> where Other.Element == Element {
        let left = asObservable()
        let right = other.asObservable()
        return .make { sink in
            let output = SerializedObserver(AnyObserver(sink))
            let subscriptions = [SingleAssignmentDisposable(), SingleAssignmentDisposable()]
            let winner = LockedValue<Int?>(nil)
            func side(_ index: Int) -> AnyObserver<Element> {
                AnyObserver { event in
                    let (mine, won) = winner.withLock { chosen -> (Bool, Bool) in
                        if chosen == nil {
                            chosen = index
                            return (true, true)
                        }
                        return (chosen == index, false)
                    }
                    guard mine else { return }
                    if won { subscriptions[1 - index].dispose() }
                    output.on(event)
                }
            }
            subscriptions[0].setDisposable(left.subscribeInside(side(0)))
            subscriptions[1].setDisposable(right.subscribeInside(side(1)))
            return Disposables.create(subscriptions)
        }
    }

    /// Mirrors whichever of `sources` sends an event first; an empty collection never sends anything.
    public static func amb<Sources: Sequence>(_ sources: Sources) -> Observable<Element> where Sources.Element == Observable<Element> {
        sources.reduce(Observable<Element>.never()) { $0.amb($1) }
    }
}
