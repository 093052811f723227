#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The one place where the event grammar and disposal are enforced for a subscription.
///
/// ## Lock discipline (applies to every sink and subject in ReactorFlow)
/// 1. A lock guards only its owner's own fields. It is taken to read or change them and released before
///    anything else runs: no lock is ever held while calling downstream, disposing upstream, or running user code.
/// 2. So that observers are never called concurrently (rule A2), anything fed from several threads or sources
///    delivers through a drain queue (`SerializedObserver`, `SubjectCore`): the first caller delivers, later callers
///    enqueue and return, and the deliverer drains the queue before it lets go.
/// 3. Closures are released on the terminal event or on `dispose()`, whichever comes first (rule A3), and after
///    the lock is let go: the last reference to a closure may be the last to the user's objects, whose
///    deinitialisation is user code too (a view's dispose bag disposing its other subscriptions takes their locks).
///    The same holds for the values a lock's owner lets go of: an event it queued and then delivered, an element
///    its replay buffer replaced.
/// 4. Where a subscription meets the user's observer (every public `subscribe`), `dispose()` called on another
///    thread while an event is being delivered waits for that delivery to return, so once `dispose()` returns the
///    observer is called no more (rule A3). Operators subscribe to each other without this wait: a wait inside an
///    operator (say, `flatMapLatest` dropping an inner stream on a new element) could deadlock against a subscriber
///    that waits for the thread sending that element (rule B12).
/// 5. Fields that a lock guards are marked `@exclusivity(unchecked)`: the lock already makes every access exclusive,
///    and the runtime's own check cost about a tenth of each event. Per-event code is `@inlinable` so that it is
///    compiled for the user's element types (see `Benchmarks/README.md`).
/// 6. Single-source operators (`map`, `filter`, `scan`, `take`…, each an `OperatorStep` built with `lift`) have
///    no sink each: a chain of them is one subscription whose handlers call each other, ending in one sink — the
///    subscriber's boundary sink when the user subscribes (see `LiftObservable`). Over a subject there is no sink at
///    all: the subject's subscription is the boundary, and a `ChainEnd` keeps the grammar; the chain's first
///    operator gives the subject an element handler too, which takes elements without an event around them.
@usableFromInline
final class Sink<Element>: ObserverType, Cancelable, @unchecked Sendable { // fields are guarded by `lock`
    /// Its lock's word (see `InlineLock`): the first stored property.
    @usableFromInline var lockWord = 0
    @inlinable var lock: InlineLock { InlineLock(of: self) }
    /// The downstream observer's handler alone (its lifetime is `downstreamLifetime`): one reference to copy per
    /// event rather than two.
    @usableFromInline @exclusivity(unchecked) var downstream: AnyObserver<Element>.EventHandler?
    @usableFromInline @exclusivity(unchecked) var upstream: Disposable?
    @usableFromInline @exclusivity(unchecked) var onDispose: (() -> Void)?
    @usableFromInline @exclusivity(unchecked) var disposed = false
    @usableFromInline let downstreamLifetime: (any AnyObject & Cancelable)?
    /// Whether this sink is a user-facing boundary (point 4 above).
    @usableFromInline let waitsForDelivery: Bool
    /// Who is inside `downstream.on` right now, for boundary sinks.
    @usableFromInline @exclusivity(unchecked) var gate = DeliveryGate()

    @inlinable
    init(_ downstream: AnyObserver<Element>, onDispose: (() -> Void)? = nil, waitsForDelivery: Bool = false) {
        self.downstream = downstream.handler
        self.onDispose = onDispose
        self.downstreamLifetime = downstream.lifetime
        self.waitsForDelivery = waitsForDelivery
    }

    /// A sink for `observer` whose upstream is what `body` subscribes with it: the shape of every operator.
    @inlinable
    static func running(_ observer: AnyObserver<Element>, _ body: (Sink<Element>) -> Disposable) -> Sink<Element> {
        let sink = Sink(observer)
        sink.attach(upstream: body(sink))
        return sink
    }

    /// A sink at the user's end of a subscription: it waits out a racing delivery on dispose. `upstream` is
    /// subscribed with the returned sink.
    @inlinable
    static func boundary(
        _ downstream: AnyObserver<Element>, onDispose: (() -> Void)? = nil,
        subscribing upstream: (Sink<Element>) -> Disposable
    ) -> Sink<Element> {
        let sink = Sink(downstream, onDispose: onDispose, waitsForDelivery: true)
        sink.attach(upstream: upstream(sink))
        return sink
    }

    /// Stores what to dispose with this sink; if the sink already ended, disposes it now. This, `dispose()` and the
    /// wait run once per subscription, so they are compiled once, unspecialised.
    @usableFromInline
    func attach(upstream: Disposable) {
        lock.lock()
        if disposed {
            lock.unlock()
            upstream.dispose()
            return
        }
        self.upstream = upstream
        lock.unlock()
    }

    /// True once the subscription ended, by a terminal event or by `dispose()`, here or further downstream;
    /// producers poll it in loops.
    @usableFromInline var isDisposed: Bool {
        lock.withLock { downstream == nil } || downstreamLifetime?.isDisposed == true
    }

    @inlinable
    func on(_ event: Event<Element>) {
        deliver(event, isStop: event.isStopEvent)
    }

    /// `on(event)` for a caller that took `event` apart already and so knows whether it ends the stream: code compiled
    /// once (`runInTurn`'s handler, `OperatorOutput.endUnspecialized`), where each look into an event looks its type
    /// up at run time. Always inlined, so that `on`, which an app specialises, is one function rather than a call.
    @inlinable @inline(__always)
    func deliver(_ event: Event<Element>, isStop: Bool) {
        lock.lock()
        guard let downstream else {
            lock.unlock()
            return
        }
        if isStop { self.downstream = nil }
        guard waitsForDelivery else {
            lock.unlock()
            downstream(event)
            if isStop { dispose() }
            return
        }
        let interrupted = gate.enter() // set when the observer reentrantly causes another event
        lock.unlock()
        downstream(event)
        // After a dispose during the call this copy is the last reference to the user's closures: released here,
        // outside the lock (whatever they release may take it).
        _ = consume downstream
        lock.lock()
        let wake = gate.leave(restoring: interrupted)
        lock.unlock()
        if wake { WaitRoom.shared.wakeAll() }
        if isStop { dispose() }
    }

    @usableFromInline
    func dispose() {
        lock.lock()
        if disposed {
            lock.unlock()
            waitForDeliveryOnAnotherThread()
            return
        }
        disposed = true
        // Released after the lock: it may hold the last references to the user's objects (see `SubjectSubscription`).
        let released = downstream
        downstream = nil
        let upstream = self.upstream
        self.upstream = nil
        let onDispose = self.onDispose
        self.onDispose = nil
        lock.unlock()
        // `_fixLifetime` rather than `withExtendedLifetime`, a generic call that, compiled once, looks up the
        // handler's type (and so the event's) at run time.
        _fixLifetime(released)
        upstream?.dispose()
        onDispose?()
        waitForDeliveryOnAnotherThread()
    }

    /// Rule A3 at a boundary sink: returns once no other thread is inside the observer. A dispose from inside the
    /// observer itself (same thread) does not wait.
    @usableFromInline
    func waitForDeliveryOnAnotherThread() {
        guard waitsForDelivery else { return }
        DeliveryGate.waitUntilIdle { lock.withLock { gate.isBusyElsewhere() } }
    }
}

/// Delivers to one observer one event at a time, in arrival order, from any number of threads, without holding a
/// lock while the observer runs. Used by every operator that joins several sources.
@usableFromInline
final class SerializedObserver<Element>: ObserverType, @unchecked Sendable { // queue state is guarded by `lock`
    /// Its lock's word (see `InlineLock`): the first stored property.
    @usableFromInline var lockWord = 0
    @inlinable var lock: InlineLock { InlineLock(of: self) }
    @usableFromInline @exclusivity(unchecked) var pending = FIFO<Event<Element>>()
    @usableFromInline @exclusivity(unchecked) var delivering = false
    @usableFromInline @exclusivity(unchecked) var stopped = false
    @usableFromInline let downstream: AnyObserver<Element>

    @inlinable
    init(_ downstream: AnyObserver<Element>) {
        self.downstream = downstream
    }

    /// The common case, nobody else delivering and nothing queued after, is specialised; an event that must wait,
    /// and the draining of the events that waited, are compiled once, not for each element type (a queue is rare:
    /// it needs events from several threads at once, or an observer that sends reentrantly).
    @inlinable
    func on(_ event: Event<Element>) {
        lock.lock()
        if stopped {
            lock.unlock()
            return
        }
        if event.isStopEvent { stopped = true }
        if delivering { return enqueueThenUnlock(event) }
        delivering = true
        lock.unlock()
        downstream.on(event)
        lock.lock()
        guard pending.isEmpty else { return deliverPendingThenUnlock() }
        delivering = false
        lock.unlock()
    }

    /// Called holding `lock` while another caller delivers: queues `event` for it, and returns without the lock.
    @usableFromInline @inline(never) @_semantics("optimize.sil.specialize.generic.never")
    func enqueueThenUnlock(_ event: Event<Element>) {
        pending.append(event)
        lock.unlock()
    }

    /// Called holding `lock` by the delivering caller: delivers the queued events in order, then gives up the
    /// delivering role and the lock. Each event dies after the lock, once delivered.
    @usableFromInline @inline(never) @_semantics("optimize.sil.specialize.generic.never")
    func deliverPendingThenUnlock() {
        while let next = pending.popFirst() {
            lock.unlock()
            downstream.on(next)
            _ = consume next // the queue's was the only other reference: it dies here, outside the lock
            lock.lock()
        }
        delivering = false
        lock.unlock()
    }
}
