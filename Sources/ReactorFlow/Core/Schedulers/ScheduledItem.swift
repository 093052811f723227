#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// One piece of scheduled work, shared by every scheduler (and `TestScheduler`): runs at most once, and releases
/// its closure when it runs or is disposed, after its lock (the closure's captures may run user code as they die).
///
/// Its mutex lives in the same heap block as its fields (the buffer's element): one allocation per scheduled action
/// rather than two. The fields (the buffer's header) are read and written only holding that mutex, so the item may
/// be run and disposed from any thread; as a `ManagedBuffer` it cannot say so by conforming to `Sendable`, and hands
/// other threads `runOnAnyThread` instead.
@usableFromInline
package final class ScheduledItem: ManagedBuffer<ScheduledItemFields, pthread_mutex_t>, Cancelable {
    @usableFromInline
    package static func make(_ action: @escaping () -> Void) -> ScheduledItem {
        let item = unsafeDowncast(create(minimumCapacity: 1) { _ in ScheduledItemFields(action: action) },
                                  to: ScheduledItem.self)
        item.withUnsafeMutablePointerToElements { mutex in
            mutex.initialize(to: pthread_mutex_t())
            pthread_mutex_init(mutex, nil)
        }
        return item
    }

    deinit {
        withUnsafeMutablePointerToElements { _ = pthread_mutex_destroy($0) }
    }

    private func withLockedFields<T>(_ body: (inout ScheduledItemFields) -> T) -> T {
        withUnsafeMutablePointers { fields, mutex in
            pthread_mutex_lock(mutex)
            defer { pthread_mutex_unlock(mutex) }
            return body(&fields.pointee)
        }
    }

    /// Whether it was cancelled (a run item is not disposed, but has nothing left to run).
    @usableFromInline
    package var isDisposed: Bool { withLockedFields { $0.disposed } }

    /// Whether it will still do something when run.
    @usableFromInline
    package var isPending: Bool { withLockedFields { $0.action != nil } }

    /// `run()`, for a dispatch queue's block.
    package var runOnAnyThread: @Sendable () -> Void {
        nonisolated(unsafe) let item = self // its fields are guarded by its mutex (see above)
        return { item.run() }
    }

    @usableFromInline
    package func run() {
        let action = withLockedFields { exchange(&$0.action, with: nil) }
        action?()
    }

    @usableFromInline
    package func dispose() {
        let action = withLockedFields { fields in
            fields.disposed = true
            return exchange(&fields.action, with: nil)
        }
        _ = consume action
    }
}

/// A `ScheduledItem`'s fields, guarded by its mutex.
@usableFromInline
package struct ScheduledItemFields {
    var action: (() -> Void)?
    var disposed = false
}
