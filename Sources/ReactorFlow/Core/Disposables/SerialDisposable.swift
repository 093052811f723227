/// Holds one disposable at a time: setting a new one disposes the previous; after `dispose()`, a new one is
/// disposed at once.
///
/// ```swift
/// let current = SerialDisposable()
/// current.disposable = search(query: "a")
/// current.disposable = search(query: "ab") // cancels the first search
/// ```
public final class SerialDisposable: Cancelable, @unchecked Sendable { // `current` and `disposed` are guarded by `lock`
    /// Its lock's word (see `InlineLock`): the first stored property.
    private var lockWord = 0
    private var lock: InlineLock { InlineLock(of: self) }
    private var current: Disposable?
    private var disposed = false

    /// Creates an empty holder.
    @inline(never) public init() {}

    /// Whether `dispose()` has been called; a later `disposable` is disposed as soon as it is set.
    public var isDisposed: Bool { lock.withLock { disposed } }

    /// The disposable held now. Setting it disposes the one it replaces.
    public var disposable: Disposable {
        get { lock.withLock { current ?? NopDisposable.shared } }
        set {
            lock.lock()
            if disposed {
                lock.unlock()
                newValue.dispose()
                return
            }
            // Moved out rather than copied: a copy and a destroy of an existential each go through its type's value
            // witnesses (a `flatMapLatest` sets this per element).
            let old = exchange(&current, with: newValue)
            lock.unlock()
            (consume old).disposeAndRelease()
        }
    }

    /// Disposes the current disposable and every later one; calling it again does nothing.
    public func dispose() {
        lock.lock()
        if disposed {
            lock.unlock()
            return
        }
        disposed = true
        let old = exchange(&current, with: nil)
        lock.unlock()
        (consume old).disposeAndRelease()
    }
}

/// Accepts exactly one disposable, possibly after it was disposed (then it is disposed on arrival).
public final class SingleAssignmentDisposable: Cancelable, @unchecked Sendable { // state is guarded by `lock`
    /// Its lock's word (see `InlineLock`): the first stored property.
    private var lockWord = 0
    private var lock: InlineLock { InlineLock(of: self) }
    private var current: Disposable?
    private var disposed = false
    private var assigned = false

    /// Creates an empty holder.
    @inline(never) public init() {}

    /// Whether `dispose()` has been called; a disposable set afterwards is disposed at once.
    public var isDisposed: Bool { lock.withLock { disposed } }

    /// Stores `disposable`, or disposes it at once if this was disposed first. A second assignment is ignored
    /// (and the extra disposable disposed) rather than trapping.
    public func setDisposable(_ disposable: Disposable) {
        lock.lock()
        if disposed || assigned {
            lock.unlock()
            disposable.dispose()
            return
        }
        assigned = true
        current = disposable
        lock.unlock()
    }

    /// Disposes the assigned disposable, now or as soon as it is set; calling it again does nothing.
    public func dispose() {
        lock.lock()
        if disposed {
            lock.unlock()
            return
        }
        disposed = true
        let old = exchange(&current, with: nil)
        lock.unlock()
        (consume old).disposeAndRelease()
    }
}
