#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Holds a reactor's pipeline, so that the pipeline lives and dies with the reactor.
///
/// Declare it once in every reactor: `let reactorStorage = ReactorStorage()`. Pure Swift cannot attach storage to
/// an object or learn that it died; this one stored property does both, with no global table and no Objective-C.
public final class ReactorStorage: @unchecked Sendable { // mutable fields are guarded by `lock`
    @usableFromInline let lock = Lock.make()
    /// Held while a pipeline is built, so that a second thread waits for the one pipeline instead of building another.
    @usableFromInline let buildLock = Lock.make()
    @usableFromInline @exclusivity(unchecked) var pipeline: AnyObject?
    @usableFromInline @exclusivity(unchecked) var builder: pthread_t?
    private var stubEnabled = false
    private var stubStorage: AnyObject?
    private var consumedPulses: [AnyKeyPath: UInt] = [:]

    /// Creates empty storage; the pipeline is built on first use of `action`, `state` or `currentState`.
    public init() {}

    deinit {
        (pipeline as? Disposable)?.dispose()
    }

    @inlinable
    package func pipeline<R: Reactor>(for reactor: R) -> ReactorPipeline<R> {
        lock.lock()
        if let pipeline {
            let builtByAnotherThread = builder.map { pthread_equal($0, pthread_self()) == 0 } ?? false
            lock.unlock()
            if builtByAnotherThread {
                // Another thread is wiring it: wait until it is done.
                buildLock.withLock {}
            }
            return unsafeDowncast(pipeline, to: ReactorPipeline<R>.self)
        }
        lock.unlock()

        buildLock.lock()
        defer { buildLock.unlock() }
        if let pipeline = lock.withLock({ pipeline }) {
            return unsafeDowncast(pipeline, to: ReactorPipeline<R>.self)
        }
        // Only this thread can build now (it holds `buildLock`); user code (`initialState`) runs without `lock`.
        let created = isStubEnabled ? ReactorPipeline(stub: stub(for: reactor)) : ReactorPipeline(initialState: reactor.initialState)
        lock.lock()
        pipeline = created
        builder = pthread_self()
        lock.unlock()
        // The reactor's transforms run now; a reentrant use of the reactor from them gets `created` at once.
        if !created.isStub { created.wire(reactor) }
        lock.withLock { builder = nil }
        return created
    }

    @usableFromInline var isStubEnabled: Bool {
        get { lock.withLock { stubEnabled } }
        set {
            let alreadyBuilt = lock.withLock { () -> Bool in
                stubEnabled = newValue
                return pipeline != nil
            }
            if alreadyBuilt {
                Diagnostics.report(.stubEnabledTooLate, message: "isStubEnabled was changed after the reactor was first used; it has no effect on that reactor")
            }
        }
    }

    @usableFromInline func stub<R: Reactor>(for reactor: R) -> Stub<R> {
        lock.lock()
        if let stubStorage {
            lock.unlock()
            return unsafeDowncast(stubStorage, to: Stub<R>.self)
        }
        lock.unlock()
        let created = Stub<R>(initialState: reactor.initialState)
        return lock.withLock {
            if let stubStorage { return unsafeDowncast(stubStorage, to: Stub<R>.self) }
            stubStorage = created
            return created
        }
    }

    /// Whether update number `count` of the pulse at `keyPath` has already been delivered to someone.
    @usableFromInline func pulseIsConsumed(_ keyPath: AnyKeyPath, count: UInt) -> Bool {
        lock.withLock { consumedPulses[keyPath] == count }
    }

    @usableFromInline func markPulseConsumed(_ keyPath: AnyKeyPath, count: UInt) {
        lock.withLock { consumedPulses[keyPath] = count }
    }
}

extension Diagnostic.Kind {
    /// `transform(action:)`, `transform(mutation:)` or `transform(state:)` returned a stream that ended; the reactor
    /// keeps its latest state but processes no further actions through that stream.
    public static let reactorStreamEnded = Diagnostic.Kind(rawValue: "reactorStreamEnded")
    /// A stream returned by `mutate(action:)` failed; that stream ended and the reactor goes on.
    public static let mutationFailed = Diagnostic.Kind(rawValue: "mutationFailed")
    /// `isStubEnabled` was changed after the pipeline was built.
    public static let stubEnabledTooLate = Diagnostic.Kind(rawValue: "stubEnabledTooLate")
}
