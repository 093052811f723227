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
package final class Lock: ManagedBuffer<Void, pthread_mutex_t> {
    package static func make() -> Lock {
        let buffer = unsafeDowncast(Lock.create(minimumCapacity: 1) { _ in () }, to: Lock.self)
        buffer.withUnsafeMutablePointerToElements { mutex in
            mutex.initialize(to: pthread_mutex_t())
            pthread_mutex_init(mutex, nil)
        }
        return buffer
    }

    deinit {
        _ = withUnsafeMutablePointerToElements { pthread_mutex_destroy($0) }
    }

    @inline(__always)
    package func lock() {
        _ = withUnsafeMutablePointerToElements { pthread_mutex_lock($0) }
    }

    @inline(__always)
    package func unlock() {
        _ = withUnsafeMutablePointerToElements { pthread_mutex_unlock($0) }
    }

    @inline(__always)
    package func withLock<T>(_ body: () throws -> T) rethrows -> T {
        lock()
        defer { unlock() }
        return try body()
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
