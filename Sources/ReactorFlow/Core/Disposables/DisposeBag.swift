/// Disposes everything it holds when it is deinitialised (or replaced, which deinitialises it) or disposed.
///
/// ```swift
/// var disposeBag = DisposeBag()
/// reactor.state.subscribe(onNext: { print($0) }).disposed(by: disposeBag)
/// disposeBag = DisposeBag() // unbinds everything above
/// ```
public final class DisposeBag: @unchecked Sendable { // `items`, `disposed` and `attachment` are guarded by `lock`
    /// Its lock's word (see `InlineLock`): the first stored property.
    private var lockWord = 0
    private var lock: InlineLock { InlineLock(of: self) }
    private var items: [Disposable] = []
    private var disposed = false
    /// Something that must live exactly as long as this bag (the reactor of a `View`).
    private var attachment: AnyObject?

    /// Creates an empty bag.
    @inline(never) public init() {}

    /// Adds `disposable`; if the bag was already disposed, disposes it at once.
    public func insert(_ disposable: Disposable) {
        lock.lock()
        if disposed {
            lock.unlock()
            disposable.dispose()
            return
        }
        items.append(disposable)
        lock.unlock()
    }

    /// A bag that already holds `disposables`.
    public convenience init(disposing disposables: Disposable...) {
        self.init(disposing: disposables)
    }

    /// A bag that already holds `disposables`.
    public convenience init(disposing disposables: [Disposable]) {
        self.init()
        items = disposables
    }

    /// A bag that holds the disposables the block lists, one per line.
    ///
    /// ```swift
    /// let bag = DisposeBag {
    ///     reactor.state.map(\.title).subscribe(onNext: render)
    ///     reactor.pulse(\.$alert).subscribe(onNext: show)
    /// }
    /// ```
    public convenience init(@DisposableBuilder builder: () -> [Disposable]) {
        self.init(disposing: builder())
    }

    /// Adds several disposables, in order.
    public func insert(_ disposables: Disposable...) {
        insert(disposables)
    }

    /// Adds every element of `disposables`, in order; if the bag was already disposed, disposes them at once.
    public func insert(_ disposables: [Disposable]) {
        lock.lock()
        if disposed {
            lock.unlock()
            for disposable in disposables { disposable.dispose() }
            return
        }
        items += disposables
        lock.unlock()
    }

    /// Adds the disposables the block lists, one per line.
    ///
    /// ```swift
    /// disposeBag.insert {
    ///     reactor.state.map(\.count).subscribe(onNext: show)
    ///     button.taps.map { .increase }.bind(to: reactor.action)
    /// }
    /// ```
    public func insert(@DisposableBuilder builder: () -> [Disposable]) {
        insert(builder())
    }

    /// Gathers the lines of a `DisposeBag { … }` or `insert { … }` block into an array.
    @resultBuilder
    public enum DisposableBuilder {
        /// The disposables of a block, in order.
        public static func buildBlock(_ disposables: Disposable...) -> [Disposable] { disposables }
    }

    /// Whether `dispose()` has run.
    public var isDisposed: Bool { lock.withLock { disposed } }

    /// Disposes everything held, in insertion order; later insertions are disposed at once. Idempotent.
    public func dispose() {
        lock.lock()
        if disposed {
            lock.unlock()
            return
        }
        disposed = true
        let all = items
        items = []
        let attached = attachment
        attachment = nil
        lock.unlock()
        for disposable in all { disposable.dispose() }
        _ = attached
    }

    func attach(_ object: AnyObject?) {
        lock.withLock { attachment = object }
    }

    var attached: AnyObject? { lock.withLock { attachment } }

    deinit {
        for disposable in items { disposable.dispose() }
    }
}

extension Disposable {
    /// Adds this disposable to `bag`, so it is disposed with the bag.
    public func disposed(by bag: DisposeBag) {
        bag.insert(self)
    }
}
