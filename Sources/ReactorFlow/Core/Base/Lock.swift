#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A `pthread_mutex_t` that lives in the same heap allocation as its object.
///
/// We use pthreads rather than `Synchronization.Mutex` because ThreadSanitizer on Linux understands
/// pthread mutexes and reports false races for `Mutex`; the whole suite must stay TSan clean.
/// The lock is not recursive: by rule, no lock in ReactorFlow is held while user code runs.
@usableFromInline
package final class Lock: ManagedBuffer<Void, pthread_mutex_t> {
    @usableFromInline
    package static func make() -> Lock {
        let buffer = unsafeDowncast(Lock.create(minimumCapacity: 1) { _ in () }, to: Lock.self)
        buffer.withUnsafeMutablePointerToElements { $0.initializeMutex() }
        return buffer
    }

    deinit {
        withUnsafeMutablePointerToElements { $0.destroyMutex() }
    }

    @inlinable
    package func lock() {
        _ = withUnsafeMutablePointerToElements { pthread_mutex_lock($0) }
    }

    @inlinable
    package func unlock() {
        _ = withUnsafeMutablePointerToElements { pthread_mutex_unlock($0) }
    }

    @inlinable
    package func withLock<T>(_ body: () throws -> T) rethrows -> T {
        lock()
        defer { unlock() }
        return try body()
    }
}

extension UnsafeMutablePointer where Pointee == pthread_mutex_t {
    /// Makes the uninitialised memory here a mutex: the element of a `ManagedBuffer` that keeps its mutex in its own
    /// heap block (`Lock`, `ScheduledItem`).
    package func initializeMutex() {
        initialize(to: pthread_mutex_t())
        pthread_mutex_init(self, nil)
    }

    /// Destroys the mutex `initializeMutex()` made here.
    package func destroyMutex() {
        pthread_mutex_destroy(self)
    }
}

/// A value guarded by its own `Lock`, for the few places that need nothing more.
package final class LockedValue<Value>: @unchecked Sendable { // every access to `value` goes through `lock`
    private let lock = Lock.make()
    private var value: Value

    package init(_ value: Value) { self.value = value }

    package func withLock<T>(_ body: (inout Value) throws -> T) rethrows -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }

    package var current: Value { withLock { $0 } }
}

/// Where a thread waits for another to finish something rare: a `dispose()` for a delivery already running on
/// another thread (rule A3), a reactor's first user for the thread building its pipeline.
///
/// Such waits are rare, so one process-wide condition serves them all instead of a condition (or a second lock) per
/// object; a waiter re-checks its own condition after every wake-up, and whoever ends a wait calls `wakeAll()` after
/// changing what the waiter checks.
@usableFromInline
package final class WaitRoom: @unchecked Sendable { // the mutex and condition are pthread objects, used only through their functions
    @usableFromInline package static let shared = WaitRoom()

    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)

    private init() {
        pthread_mutex_init(mutex, nil)
        pthread_cond_init(condition, nil)
    }

    /// Blocks until `condition()` is false; whoever makes it false calls `wakeAll()` afterwards.
    @usableFromInline package func wait(while condition: () -> Bool) {
        pthread_mutex_lock(mutex)
        while condition() { pthread_cond_wait(self.condition, mutex) }
        pthread_mutex_unlock(mutex)
    }

    @usableFromInline package func wakeAll() {
        pthread_mutex_lock(mutex)
        pthread_cond_broadcast(condition)
        pthread_mutex_unlock(mutex)
    }
}

/// The rule A3 bookkeeping of a user-facing subscription: which thread is inside the observer, and whether a
/// `dispose()` on another thread waits for it. Lives in its owner's state, under its owner's lock.
@usableFromInline
struct DeliveryGate {
    /// A thread's identity, as the gate records it: its `pthread_t` taken as an address (glibc, musl and Darwin all
    /// make it the address of the thread's descriptor), so that "no thread" is the null address and recording a
    /// thread is one store per delivery rather than a value and an optional's tag.
    @usableFromInline typealias Thread = UnsafeRawPointer

    @usableFromInline var thread: Thread?
    @usableFromInline var disposerWaiting = false

    @inlinable init() {}

    /// The current thread's identity.
    @inlinable
    static var currentThread: Thread {
        #if canImport(Darwin)
        UnsafeRawPointer(pthread_self())
        #else
        // glibc's and musl's `pthread_self()` returns the address of the thread's descriptor, never 0.
        UnsafeRawPointer(bitPattern: UInt(pthread_self())).unsafelyUnwrapped
        #endif
    }

    /// The current thread starts calling the observer; returns the delivery it interrupts (a reentrant one), if any.
    @inlinable
    mutating func enter() -> Thread? {
        enter(as: Self.currentThread)
    }

    /// `enter()` for a caller that already knows its thread: a subject's delivery asks once per element, not once
    /// per subscriber.
    @inlinable
    mutating func enter(as current: Thread) -> Thread? {
        defer { thread = current }
        return thread
    }

    /// The call returned; `interrupted` is what `enter()` returned. True if a waiting disposer must be woken.
    @inlinable
    mutating func leave(restoring interrupted: Thread? = nil) -> Bool {
        thread = interrupted
        guard interrupted == nil, disposerWaiting else { return false }
        disposerWaiting = false
        return true
    }

    /// Whether another thread is inside the observer; if so, records that a disposer waits for it.
    @inlinable
    mutating func isBusyElsewhere() -> Bool {
        guard let thread, thread != Self.currentThread else { return false }
        disposerWaiting = true
        return true
    }

    /// Returns once no other thread is inside the observer. `check` runs `isBusyElsewhere()` under the owner's lock.
    @inlinable
    static func waitUntilIdle(_ check: () -> Bool) {
        guard check() else { return }
        WaitRoom.shared.wait(while: check)
    }
}
