extension ObservableType {
    /// Drops an element equal to the one before it (by `comparer`); a thrown error ends the stream.
    ///
    /// ```swift
    /// names.distinctUntilChanged { $0.lowercased() == $1.lowercased() }
    /// ```
    @inlinable
    public func distinctUntilChanged(_ comparer: @escaping (Element, Element) throws -> Bool) -> Observable<Element> {
        lift(DistinctStep(comparer: comparer))
    }

    /// Drops an element whose key equals the previous element's key.
    ///
    /// ```swift
    /// users.distinctUntilChanged { $0.id }
    /// ```
    @inlinable
    public func distinctUntilChanged<Key: Equatable>(_ keySelector: @escaping (Element) throws -> Key) -> Observable<Element> {
        distinctUntilChanged(keySelector, comparer: ==)
    }

    /// Drops an element whose key equals (by `comparer`) the key of the last element let through. Each element's key
    /// is computed once, as it arrives; a thrown error ends the stream.
    ///
    /// ```swift
    /// searches.distinctUntilChanged({ $0.query }, comparer: { $0.caseInsensitiveCompare($1) == .orderedSame })
    /// ```
    @inlinable
    public func distinctUntilChanged<Key>(_ keySelector: @escaping (Element) throws -> Key,
                                          comparer: @escaping (Key, Key) throws -> Bool) -> Observable<Element> {
        lift(DistinctKeyStep(keySelector: keySelector, comparer: comparer))
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
    @inlinable @inline(never)
    public func distinctUntilChanged() -> Observable<Element> {
        lift(EqualDistinctStep())
    }
}

/// `distinctUntilChanged`'s work on each element; keeps the last element it let through.
@usableFromInline
struct DistinctStep<Element>: OperatorStep {
    @usableFromInline typealias Input = Element
    @usableFromInline typealias Output = Element
    @usableFromInline let comparer: (Element, Element) throws -> Bool
    @usableFromInline var previous: Element?

    @inlinable
    init(comparer: @escaping (Element, Element) throws -> Bool) {
        self.comparer = comparer
    }

    @inlinable
    mutating func receive(_ element: Element, of runner: StepRunner<Self>) {
        do {
            if let previous, try comparer(previous, element) { return }
            previous = element
            runner.sendNext(element)
        } catch {
            runner.output.onError(error)
        }
    }
}

/// `distinctUntilChanged(_:comparer:)`'s work on each element; keeps the key of the last element it let through.
@usableFromInline
struct DistinctKeyStep<Element, Key>: OperatorStep {
    @usableFromInline typealias Input = Element
    @usableFromInline typealias Output = Element
    @usableFromInline let keySelector: (Element) throws -> Key
    @usableFromInline let comparer: (Key, Key) throws -> Bool
    @usableFromInline var previousKey: Key?

    @inlinable
    init(keySelector: @escaping (Element) throws -> Key, comparer: @escaping (Key, Key) throws -> Bool) {
        self.keySelector = keySelector
        self.comparer = comparer
    }

    @inlinable
    mutating func receive(_ element: Element, of runner: StepRunner<Self>) {
        do {
            let key = try keySelector(element)
            if let previousKey, try comparer(previousKey, key) { return }
            previousKey = key
            runner.sendNext(element)
        } catch {
            runner.output.onError(error)
        }
    }
}

/// `distinctUntilChanged()`'s work on each element: `DistinctStep` with `==` called directly rather than through a
/// comparer closure, one indirect call less per element for the commonest binding (`map` + `distinctUntilChanged`).
@usableFromInline
struct EqualDistinctStep<Element: Equatable>: OperatorStep {
    @usableFromInline typealias Input = Element
    @usableFromInline typealias Output = Element
    @usableFromInline var previous: Element?

    @inlinable
    init() {}

    @inlinable
    mutating func receive(_ element: Element, of runner: StepRunner<Self>) {
        if let previous, previous == element { return }
        previous = element
        runner.sendNext(element)
    }
}
