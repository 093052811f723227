#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import ReactorFlowAtomics

/// A lock whose uncontended path is one atomic instruction to take it and one to give it back: no call into the C
/// library, and one word of state in a small object.
///
/// `lock()` and `unlock()` are inlined into ReactorFlow's own code (a subject's walk over its subscribers takes and
/// gives back the lock once per subscriber) and called from the code an app specialises: inlined there as well, they
/// would be 2.6% more of the compiler's work per reactor type. They call the contended paths, which are internal, so
/// cross-module optimisation does not copy them into the app.
///
/// Its state is 0 (free), 1 (held) or 2 (held, and a thread may be parked waiting for it). A thread that finds it
/// held spins briefly, then parks in its room of `WaitRoom.locks` after marking it 2; giving back a lock marked 2 wakes
/// the threads parked in that room, which compete for their locks again. Built on the C compiler's atomic builtins
/// (`ReactorFlowAtomics`; see `AtomicWord`), whose operations ThreadSanitizer sees, and pthread parking, which it
/// understands (it reports false races for `Synchronization.Mutex` on Linux). The whole suite must stay TSan clean.
///
/// The lock is not recursive: by rule, no lock in ReactorFlow is held while user code runs.
@usableFromInline
package final class Lock: @unchecked Sendable { // `state` is read and written only by atomic instructions, at `word`
    /// The sole stored property, so that its address is the object's first stored property (as `AtomicWord`'s).
    private var state = 0

    private init() {}

    private var word: UnsafeMutablePointer<Int> { firstWord(of: self) }

    /// Not inlined: made where a reactor's storage is, in the app's code otherwise.
    @usableFromInline @inline(never)
    package static func make() -> Lock {
        Lock()
    }

    @usableFromInline
    package func lock() {
        guard reactorflow_compare_exchange_acquire(word, 0, 1) else { return lockContended() }
    }

    @usableFromInline
    package func unlock() {
        guard reactorflow_exchange_release(word, 0) == 1 else { return wakeParked() }
    }

    @inlinable
    package func withLock<T>(_ body: () throws -> T) rethrows -> T {
        lock()
        defer { unlock() }
        return try body()
    }

    /// `Self.lockContended(word)`, from `self` itself, which `lock()` holds in a register already: it would otherwise
    /// keep the word's address in one more across its fast path.
    @inline(never)
    func lockContended() {
        Self.lockContended(word)
    }

    /// The lock whose state is at `word` (a `Lock`'s, or an `InlineLock`'s) was held: spins a little, since the
    /// critical sections here are short, then parks until it is free. Internal, not `@usableFromInline`: see the
    /// type's comment.
    @inline(never)
    static func lockContended(_ word: UnsafeMutablePointer<Int>) {
        for _ in 0..<Self.spinLimit {
            if reactorflow_load_relaxed(word) == 0, reactorflow_compare_exchange_acquire(word, 0, 1) {
                return
            }
        }
        // Marked 2 whenever this thread may park, so that the holder wakes it; taken as 2, since another may be
        // parked too.
        let room = WaitRoom.room(forLockAt: word)
        while reactorflow_exchange_acquire(word, 2) != 0 {
            room.wait { reactorflow_load_relaxed(word) == 2 }
        }
    }

    /// The lock was marked as having parked waiters: wakes them. A method of the lock, as `lockContended()` is:
    /// `unlock()`, inlined into ReactorFlow's code, calls it on the object it holds anyway, where a static call changed
    /// the register use of the code around it (9 instructions more per `concat3` action, in the subject's walk).
    @inline(never)
    func wakeParked() {
        Self.wakeParked(word)
    }

    /// The lock whose state is at `word` (a `Lock`'s, or an `InlineLock`'s) was marked as having parked waiters:
    /// wakes the threads parked in its room.
    @inline(never)
    static func wakeParked(_ word: UnsafeMutablePointer<Int>) {
        WaitRoom.room(forLockAt: word).wakeAll()
    }

    /// How many times a thread that found the lock held tries again before parking.
    static var spinLimit: Int { 100 }
}

/// The lock of an object that keeps it inline, as its first stored property, rather than in a `Lock` of its own: one
/// heap block fewer per object (a `Lock` is 24 bytes, 32 with glibc's malloc), and one load fewer per use. The same
/// lock as `Lock` otherwise: the same algorithm runs on the word.
///
/// For an object whose lock is its own (a sink, a disposable), never shared. The object's first stored property is
/// `private var lockWord = 0`, which nothing else reads or writes (`InlineLockTests` checks each such type), and it
/// reads its lock as `InlineLock(of: self)` inside its own methods only: the value holds the word's address, not the
/// object, so it is only good while the object is kept alive, as `self` is in its methods.
@usableFromInline
struct InlineLock {
    @usableFromInline let word: UnsafeMutablePointer<Int>

    /// The lock whose word is `owner`'s first stored property.
    @inlinable @inline(__always)
    init(of owner: AnyObject) {
        word = firstWord(of: owner)
    }

    /// Called, not inlined, from an app's specialised code, as `Lock.lock()` is.
    @usableFromInline
    func lock() {
        guard reactorflow_compare_exchange_acquire(word, 0, 1) else { return Lock.lockContended(word) }
    }

    @usableFromInline
    func unlock() {
        guard reactorflow_exchange_release(word, 0) == 1 else { return Lock.wakeParked(word) }
    }

    @inlinable
    func withLock<T>(_ body: () throws -> T) rethrows -> T {
        lock()
        defer { unlock() }
        return try body()
    }
}

/// A value guarded by its own lock, for the few places that need nothing more.
package final class LockedValue<Value>: @unchecked Sendable { // every access to `value` goes through its inline lock
    /// Its lock's word (see `InlineLock`): the first stored property.
    private var lockWord = 0
    private var value: Value

    private var lock: InlineLock { InlineLock(of: self) }

    package init(_ value: Value) { self.value = value }

    package func withLock<T>(_ body: (inout Value) throws -> T) rethrows -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }

    package var current: Value { withLock { $0 } }
}

/// Where a thread waits for another to finish something rare: a `dispose()` for a delivery already running on
/// another thread (rule A3), a reactor's first user for the thread building its pipeline, a contended `Lock`.
///
/// Such waits are rare, so process-wide conditions serve them all (`shared`, and `locks`' few rooms for contended
/// locks) instead of a condition (or a second lock) per object; a waiter re-checks its own condition after every
/// wake-up, and whoever ends a wait calls `wakeAll()` after changing what the waiter checks.
@usableFromInline
package final class WaitRoom: @unchecked Sendable { // the mutex and condition are pthread objects, used only through their functions
    @usableFromInline package static let shared = WaitRoom()
    /// Where threads wait for contended locks: a few rooms shared by all locks, since contention is rare and short,
    /// rather than a condition per lock, which would cost every reactor and sink its size. A lock's room is chosen by
    /// its word's address, so giving back a contended lock wakes the threads parked on the locks of its room, not on
    /// every lock. Not `shared`, whose waiters take a lock while they check their condition, and so may park here
    /// meanwhile.
    static let locks = (0..<16).map { _ in WaitRoom() }

    /// The room of the lock whose state is at `word`: the same one for as long as the word lives. The address is
    /// mixed (Fibonacci hashing) since objects' addresses differ in their low bits by their sizes.
    static func room(forLockAt word: UnsafeMutablePointer<Int>) -> WaitRoom {
        locks[Int((UInt(bitPattern: word) &* 0x9E37_79B9_7F4A_7C15) >> 60)]
    }

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
