/// A group of disposables disposed together; one added after the group was disposed is disposed at once.
///
/// ```swift
/// let group = CompositeDisposable()
/// let key = group.insert(timerSubscription)
/// group.remove(for: key)  // disposes just that one
/// group.dispose()         // disposes the rest
/// ```
public final class CompositeDisposable: Cancelable, @unchecked Sendable { // all state is guarded by `lock`
    /// Its lock's word (see `InlineLock`): the first stored property.
    private var lockWord = 0
    /// Identifies a disposable inside the group, for `remove(for:)`.
    public struct DisposeKey: Hashable, Sendable {
        fileprivate let value: Int
    }

    private var lock: InlineLock { InlineLock(of: self) }
    /// Keyed for O(1) removal: `delay` and `flatMap` add and remove one entry per element, possibly thousands at once.
    private var items: [Int: Disposable] = [:]
    private var nextKey = 0
    private var disposed = false

    /// Creates an empty group.
    @inline(never) public init() {}

    /// Creates a group holding `disposables`.
    public init(_ disposables: Disposable...) {
        for disposable in disposables { _ = insertLocked(disposable) }
    }

    /// Creates a group holding `disposables`.
    public init(disposables: [Disposable]) {
        for disposable in disposables { _ = insertLocked(disposable) }
    }

    private func insertLocked(_ disposable: Disposable) -> DisposeKey {
        let key = nextKey
        nextKey += 1
        items[key] = disposable
        return DisposeKey(value: key)
    }

    /// Whether `dispose()` has been called; later insertions are disposed at once.
    public var isDisposed: Bool { lock.withLock { disposed } }

    /// The number of disposables held.
    public var count: Int { lock.withLock { items.count } }

    /// Adds `disposable`; returns `nil`, having disposed it, when the group is already disposed.
    @discardableResult
    public func insert(_ disposable: Disposable) -> DisposeKey? {
        lock.lock()
        if disposed {
            lock.unlock()
            disposable.dispose()
            return nil
        }
        let key = insertLocked(disposable)
        lock.unlock()
        return key
    }

    /// Removes the disposable for `key` and disposes it.
    public func remove(for key: DisposeKey) {
        let removed = lock.withLock { items.removeValue(forKey: key.value) }
        (consume removed).disposeAndRelease()
    }

    /// Removes the disposable for `key` without disposing it (it finished on its own).
    @usableFromInline
    func forget(_ key: DisposeKey) {
        lock.withLock { _ = items.removeValue(forKey: key.value) }
    }

    /// Disposes every contained disposable, once; calling it again does nothing.
    public func dispose() {
        lock.lock()
        if disposed {
            lock.unlock()
            return
        }
        disposed = true
        let all = items.sorted { $0.key < $1.key }.map(\.value) // in insertion order
        items = [:]
        lock.unlock()
        for disposable in all { disposable.dispose() }
    }
}
