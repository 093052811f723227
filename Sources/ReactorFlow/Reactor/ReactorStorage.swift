import ReactorFlowAtomics
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
    /// Also the pipeline's lock: none of the objects sharing it calls out while holding it.
    @usableFromInline let lock = Lock.make()
    @usableFromInline @exclusivity(unchecked) var pipeline: AnyReactorPipeline?
    /// The thread building the pipeline, while it does; others wait for it in the `WaitRoom`.
    @usableFromInline @exclusivity(unchecked) var builder: pthread_t?
    /// Whether a thread waits for the builder, which must then wake the wait room.
    @usableFromInline @exclusivity(unchecked) var buildWaiters = false
    /// What few reactors use (stubs, pulses), made on first use so that the others do not carry it.
    @usableFromInline var extras: Extras?

    @usableFromInline
    final class Extras {
        @usableFromInline var stubEnabled = false
        var stub: AnyObject?
        var pulseLedgers: [AnyKeyPath: PulseLedger] = [:]
        init() {}
    }

    /// Called holding `lock`.
    private var extrasHoldingLock: Extras { madeIfNeeded(&extras) { Extras() } }

    /// Creates empty storage; the pipeline is built on first use of `action`, `state` or `currentState`. Not
    /// inlined: cross-module optimisation would otherwise copy the making of its fields into every reactor's
    /// initialiser.
    @inline(never)
    public init() {}

    /// Whether a thread is waiting for another to finish building the pipeline (for tests).
    package var isBuildWaitedFor: Bool { lock.withLock { buildWaiters } }

    deinit {
        pipeline?.dispose()
    }

    /// Specialised, but never inlined: `action`, `state`, `currentState`, `pulse(_:)` and the other places that reach
    /// the pipeline each call it, where its test, its cast and its call to `buildPipeline` inlined into each would be
    /// more code for every reactor type to optimise. The lock round trip is compiled once (`builtPipeline`).
    @inlinable @inline(never)
    package func pipeline<R: Reactor>(for reactor: R) -> ReactorPipeline<R> {
        if let builtPipeline { return unsafeDowncast(builtPipeline, to: ReactorPipeline<R>.self) }
        return buildPipeline(for: reactor)
    }

    /// The pipeline once it is built and wired: `nil` before, and while its builder wires it. Never inlined (see
    /// `pipeline(for:)`).
    @usableFromInline
    var builtPipeline: AnyReactorPipeline? {
        @inline(never) get {
            lock.lock()
            defer { lock.unlock() }
            return builder == nil ? pipeline : nil
        }
    }

    /// Builds the pipeline, or waits for the thread building it. The builder's own reentrant uses (from the
    /// transforms) get the pipeline at once.
    ///
    /// Only making and wiring the pipeline is specialised for the reactor type; the waiting and the bookkeeping
    /// around it are compiled once (`beginBuilding`, `publish`, `finishBuilding`), as is a stub's pipeline.
    @inlinable
    func buildPipeline<R: Reactor>(for reactor: R) -> ReactorPipeline<R> {
        var stubbed = false
        if let built = beginBuilding(for: R.self, stubbed: &stubbed) {
            return unsafeDowncast(built, to: ReactorPipeline<R>.self)
        }
        if stubbed { return buildStubPipeline(for: reactor) }
        // User code (`initialState`) runs without the lock.
        let created = ReactorPipeline<R>(initialState: reactor.initialState, lock: lock,
                                         receiveAction: ReactorPipeline<R>.loopReceivesActions)
        publish(created)
        // The reactor's transforms run now; a reentrant use of the reactor from them gets `created` at once.
        created.wire(reactor)
        finishBuilding()
        return created
    }

    /// A stub's pipeline for `reactor`, built by the builder: compiled once, since only tests stub a reactor.
    @usableFromInline @inline(never) @_semantics("optimize.sil.specialize.generic.never")
    func buildStubPipeline<R: Reactor>(for reactor: R) -> ReactorPipeline<R> {
        let created = ReactorPipeline(stub: stub(for: reactor))
        publish(created)
        finishBuilding()
        return created
    }

    /// Returns the pipeline once no other thread is building it (built by that thread, or earlier), or `nil` with
    /// this thread made the builder, and `stubbed` set to whether it builds a stub's pipeline.
    @usableFromInline
    func beginBuilding(for reactorType: Any.Type, stubbed: inout Bool) -> AnyReactorPipeline? {
        let me = pthread_self()
        lock.lock()
        while let builder, pthread_equal(builder, me) == 0 {
            // Another thread is building it: wait in the wait room until it is done.
            buildWaiters = true
            lock.unlock()
            WaitRoom.shared.wait(while: { [self] in lock.withLock { self.builder.map { pthread_equal($0, me) == 0 } ?? false } })
            lock.lock()
        }
        if let pipeline {
            lock.unlock()
            return pipeline
        }
        if builder != nil {
            // Only this thread can be the builder here (others were waited for), and it has no pipeline yet: it is
            // still reading `initialState`.
            lock.unlock()
            preconditionFailure("\(reactorType).initialState uses the reactor's action, state or currentState, which are built from it")
        }
        builder = me
        stubbed = extras?.stubEnabled ?? false
        lock.unlock()
        return nil
    }

    /// Called by the builder once the pipeline is made, before it is wired: reentrant uses get it from now on.
    @usableFromInline
    func publish(_ created: AnyReactorPipeline) {
        lock.withLock { pipeline = created }
    }

    /// Called by the builder once the pipeline is wired: wakes the threads waiting for it.
    @usableFromInline
    func finishBuilding() {
        let wake = lock.withLock { () -> Bool in
            builder = nil
            defer { buildWaiters = false }
            return buildWaiters
        }
        if wake { WaitRoom.shared.wakeAll() }
    }

    @usableFromInline var isStubEnabled: Bool {
        get { lock.withLock { extras?.stubEnabled ?? false } }
        set {
            let alreadyBuilt = lock.withLock { () -> Bool in
                extrasHoldingLock.stubEnabled = newValue
                return pipeline != nil || builder != nil
            }
            if alreadyBuilt {
                Diagnostics.report(.stubEnabledTooLate, message: "isStubEnabled was changed after the reactor was first used; it has no effect on that reactor")
            }
        }
    }

    @usableFromInline func stub<R: Reactor>(for reactor: R) -> Stub<R> {
        lock.lock()
        if let stubStorage = extras?.stub {
            lock.unlock()
            return unsafeDowncast(stubStorage, to: Stub<R>.self)
        }
        lock.unlock()
        let created = Stub<R>(initialState: reactor.initialState)
        return lock.withLock {
            if let stubStorage = extras?.stub { return unsafeDowncast(stubStorage, to: Stub<R>.self) }
            extrasHoldingLock.stub = created
            return created
        }
    }

    /// The ledger of the pulse at `keyPath`, shared by every `pulse(_:)` subscription to it.
    @usableFromInline func pulseLedger(for keyPath: AnyKeyPath) -> PulseLedger {
        lock.withLock {
            if let ledger = extras?.pulseLedgers[keyPath] { return ledger }
            let ledger = PulseLedger()
            extrasHoldingLock.pulseLedgers[keyPath] = ledger
            return ledger
        }
    }
}

/// Which update of one pulse of a reactor has been delivered to some subscriber, for `PulseDelivery.unconsumed`.
///
/// One atomic word rather than a field under the storage's lock: every emission records its update, and a store
/// costs no lock round trip. 0 stands for none: update 0 is the initial value, which `.unconsumed` never delivers
/// whether or not it was recorded, so it is never asked about.
@usableFromInline
final class PulseLedger: @unchecked Sendable { // `consumed` is read and written only by atomic instructions, at `word`
    /// The sole stored property, so that its address is the object's first stored property (as `AtomicWord`'s).
    private var consumed = 0

    init() {}

    private var word: UnsafeMutablePointer<Int> { firstWord(of: self) }

    // Not inlinable: each pulse subscription's step would carry the calls, for every state type.

    /// Whether update number `count` (not 0) has already been delivered to someone.
    @usableFromInline func isConsumed(_ count: UInt) -> Bool {
        UInt(bitPattern: reactorflow_load_acquire(word)) == count
    }

    /// Records that update number `count` was delivered.
    @usableFromInline func markConsumed(_ count: UInt) { reactorflow_store_release(word, Int(bitPattern: count)) }
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
