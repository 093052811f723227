/// A handle on a subscription or a piece of scheduled work.
///
/// `dispose()` is idempotent and may be called from any thread. Once it returns, no new event delivery of that
/// subscription begins, and the subscription releases its closures.
///
/// ```swift
/// let subscription = subject.subscribe(onNext: { print($0) })
/// subscription.dispose()
/// subscription.dispose() // a documented no-op
/// ```
public protocol Disposable {
    /// Ends the subscription or cancels the work. Calling it again does nothing.
    func dispose()
}

/// A disposable that can tell whether it has been disposed.
public protocol Cancelable: Disposable {
    /// Whether `dispose()` has been called.
    var isDisposed: Bool { get }
}

// Making a disposable (these factories, and the initialisers of the disposables that keep their lock inline) is
// `@inline(never)`: it runs once per subscription, and inlined into every operator that makes one it is about 6 KB
// more of an app's code.

/// Factories for the common disposables.
public enum Disposables {
    /// A disposable that does nothing.
    public static func create() -> Disposable { NopDisposable.shared }

    /// A disposable that runs `dispose` once, on the first call to `dispose()`, and then releases it.
    ///
    /// ```swift
    /// return Disposables.create { task.cancel() }
    /// ```
    @inline(never) public static func create(with dispose: @escaping () -> Void) -> Cancelable {
        ActionDisposable(dispose)
    }

    /// A disposable that disposes both arguments together.
    @inline(never) public static func create(_ first: Disposable, _ second: Disposable) -> Cancelable {
        // The most common group: a closure is lighter than a `CompositeDisposable`, which can grow and remove.
        ActionDisposable {
            first.dispose()
            second.dispose()
        }
    }

    /// A disposable that disposes all three arguments together.
    public static func create(_ first: Disposable, _ second: Disposable, _ third: Disposable) -> Cancelable {
        CompositeDisposable(first, second, third)
    }

    /// A disposable that disposes all its arguments together, in order.
    public static func create(_ first: Disposable, _ second: Disposable, _ third: Disposable,
                              _ rest: Disposable...) -> Cancelable {
        CompositeDisposable(disposables: [first, second, third] + rest)
    }

    /// A disposable that disposes every element of `disposables` together.
    public static func create(_ disposables: [Disposable]) -> Cancelable {
        CompositeDisposable(disposables: disposables)
    }
}

/// Does nothing; shared by every `Disposables.create()`.
final class NopDisposable: Disposable, Sendable {
    static let shared = NopDisposable()
    func dispose() {}
}

/// Runs its action once; the action is released as soon as it has run.
final class ActionDisposable: Cancelable, @unchecked Sendable { // `action` and `disposed` are guarded by `lock`
    /// Its lock's word (see `InlineLock`): the first stored property.
    private var lockWord = 0
    private var lock: InlineLock { InlineLock(of: self) }
    private var action: (() -> Void)?
    private var disposed = false

    @inline(never) init(_ action: @escaping () -> Void) { self.action = action }

    var isDisposed: Bool { lock.withLock { disposed } }

    func dispose() {
        lock.lock()
        let action = self.action
        self.action = nil
        disposed = true
        lock.unlock()
        action?()
    }
}

/// Only records that it was disposed; long-running loops poll it.
public final class BooleanDisposable: Cancelable, @unchecked Sendable { // `disposed` is guarded by `lock`
    /// Its lock's word (see `InlineLock`): the first stored property.
    private var lockWord = 0
    private var lock: InlineLock { InlineLock(of: self) }
    private var disposed = false

    /// A disposable that is already disposed.
    public static let disposed = BooleanDisposable(isDisposed: true)

    /// Creates a disposable that is not yet disposed.
    @inline(never) public init() {}

    /// Creates a disposable that is disposed already if `isDisposed` is true.
    @inline(never) public init(isDisposed: Bool) { disposed = isDisposed }

    /// Whether `dispose()` has been called.
    public var isDisposed: Bool { lock.withLock { disposed } }

    /// Marks the disposable as disposed; calling it again does nothing.
    public func dispose() { lock.withLock { disposed = true } }
}

extension Optional where Wrapped == Disposable {
    /// Disposes the disposable held, if any, and releases it: `(consume old).disposeAndRelease()`. Unlike
    /// `old?.dispose()`, which copies the disposable out of the optional before calling it, this takes it: each copy
    /// and destroy of an existential goes through its type's value witnesses, about a hundred instructions, which a
    /// holder that disposes per element (a `flatMapLatest`'s `SerialDisposable`) would pay per element. Without
    /// `consume` at the call, the compiler copies the optional all the same.
    @inline(__always)
    consuming func disposeAndRelease() {
        if case .some(let disposable) = consume self { disposable.dispose() }
    }
}
