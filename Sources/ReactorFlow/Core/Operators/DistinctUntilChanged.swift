extension ObservableType {
    /// Drops an element equal to the one before it (by `comparer`); a thrown error ends the stream.
    ///
    /// ```swift
    /// names.distinctUntilChanged { $0.lowercased() == $1.lowercased() }
    /// ```
    @inlinable
    public func distinctUntilChanged(_ comparer: @escaping (Element, Element) throws -> Bool) -> Observable<Element> {
        lift { sink, wantsElements in
            let previous = OperatorState<Element?>(nil)
            // Inlined into both handlers: as a call, it cost each element 24 instructions when this operator is not
            // first in its chain (`state.map { … }.distinctUntilChanged()`), where only the event handler is used.
            @inline(__always) func forwardIfChanged(_ element: Element) {
                do {
                    if let last = previous.value, try comparer(last, element) { return }
                    previous.value = element
                    sink.onNext(element)
                } catch {
                    sink.onError(error)
                }
            }
            return ChainHead(
                events: { event in
                    switch event {
                    case .next(let element): forwardIfChanged(element)
                    default: sink.forwardStop(event)
                    }
                },
                elements: wantsElements ? { forwardIfChanged($0) } : nil)
        }
    }

    /// Drops an element whose key equals the previous element's key.
    ///
    /// ```swift
    /// users.distinctUntilChanged { $0.id }
    /// ```
    @inlinable
    public func distinctUntilChanged<Key: Equatable>(_ keySelector: @escaping (Element) throws -> Key) -> Observable<Element> {
        distinctUntilChanged { try keySelector($0) == keySelector($1) }
    }

    /// Drops an element whose value at `keyPath` equals the previous element's.
    ///
    /// ```swift
    /// reactor.state.distinctUntilChanged(at: \.isLoading)
    /// ```
    @inlinable
    public func distinctUntilChanged<Property: Equatable>(at keyPath: KeyPath<Element, Property>) -> Observable<Element> {
        distinctUntilChanged { $0[keyPath: keyPath] == $1[keyPath: keyPath] }
    }
}

extension ObservableType where Element: Equatable {
    /// Drops an element equal to the one before it.
    ///
    /// ```swift
    /// Observable.of(1, 1, 2, 1).distinctUntilChanged() // 1, 2, 1
    /// ```
    @inlinable
    public func distinctUntilChanged() -> Observable<Element> {
        distinctUntilChanged { $0 == $1 }
    }
}
