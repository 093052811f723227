#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The objects whose inline window the calling thread is in: thread-local, so that an object need not store a
/// thread's identity to recognise the thread that opened its window.
///
/// Windows nest (one object's window may open another's on the same thread, as when a reactor's mutation stream
/// sends an action to another reactor), and every open one stays open: the thread-local slot holds the innermost
/// window, each window refers to the one it encloses, and each lives on the stack of the call that opened it.
@usableFromInline
enum InlineWindow {
    @usableFromInline static let key: pthread_key_t = {
        var key = pthread_key_t()
        pthread_key_create(&key, nil)
        return key
    }()

    /// One open window: its owner, and the window it is nested in.
    @usableFromInline
    struct Frame {
        @usableFromInline let owner: UnsafeMutableRawPointer
        @usableFromInline let enclosing: UnsafeMutableRawPointer?

        @inlinable
        init(owner: UnsafeMutableRawPointer, enclosing: UnsafeMutableRawPointer?) {
            self.owner = owner
            self.enclosing = enclosing
        }
    }

    /// Runs `body` with `owner`'s window open on this thread, inside any window already open.
    @inlinable
    static func withOpen(for owner: AnyObject, _ body: () -> Void) {
        let enclosing = pthread_getspecific(key)
        withUnsafeTemporaryAllocation(of: Frame.self, capacity: 1) { frame in
            let address = frame.baseAddress.unsafelyUnwrapped
            address.initialize(to: Frame(owner: Unmanaged.passUnretained(owner).toOpaque(), enclosing: enclosing))
            pthread_setspecific(key, address)
            body()
            pthread_setspecific(key, enclosing)
        }
    }

    /// Whether this thread is in `owner`'s window (usually the innermost, so the walk is one step).
    @inlinable
    static func isOpen(for owner: AnyObject) -> Bool {
        let target = Unmanaged.passUnretained(owner).toOpaque()
        var window = pthread_getspecific(key)
        while let current = window {
            let frame = current.assumingMemoryBound(to: Frame.self).pointee
            if frame.owner == target { return true }
            window = frame.enclosing
        }
        return false
    }
}
