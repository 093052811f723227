/// Disposes its underlying disposable once it has been disposed itself and every reference it handed out with
/// `retain()` has been disposed too: what keeps a source subscribed while a window or group made from it is still
/// observed.
///
/// ```swift
/// let shared = RefCountDisposable(disposable: sourceSubscription)
/// let forWindow = shared.retain()   // the source lives until this and `shared` are both disposed
/// ```
public final class RefCountDisposable: Cancelable, @unchecked Sendable { // every field is guarded by `lock`
    /// Its lock's word (see `InlineLock`): the first stored property.
    private var lockWord = 0
    private var lock: InlineLock { InlineLock(of: self) }
    private var underlying: Disposable?
    private var primaryDisposed = false
    private var references = 0

    /// Guards `disposable`.
    @inline(never) public init(disposable: Disposable) {
        underlying = disposable
    }

    /// Whether the underlying disposable has been disposed.
    public var isDisposed: Bool { lock.withLock { underlying == nil } }

    /// A reference that keeps the underlying disposable alive until it is disposed; after the end, a no-op.
    public func retain() -> Disposable {
        let alive = lock.withLock { () -> Bool in
            guard underlying != nil else { return false }
            references += 1
            return true
        }
        guard alive else { return Disposables.create() }
        // Runs once, however often the reference is disposed.
        return Disposables.create(with: { [self] in release() })
    }

    /// Marks the primary reference disposed; the underlying disposable goes once no retained reference is left.
    public func dispose() {
        let ending = lock.withLock { () -> Disposable? in
            guard !primaryDisposed else { return nil }
            primaryDisposed = true
            return takeIfUnusedHoldingLock()
        }
        ending?.dispose()
    }

    private func release() {
        let ending = lock.withLock { () -> Disposable? in
            references -= 1
            return takeIfUnusedHoldingLock()
        }
        ending?.dispose()
    }

    private func takeIfUnusedHoldingLock() -> Disposable? {
        guard primaryDisposed, references == 0 else { return nil }
        defer { underlying = nil }
        return underlying
    }
}
