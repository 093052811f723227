#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Which object's inline window the calling thread is in, if any: thread-local, so that an object need not store
/// a thread's identity to recognise the thread that opened its window. Windows nest (one object's window may open
/// another's on the same thread); each `open` returns the window it replaced, for `restore`.
@usableFromInline
enum InlineWindow {
    @usableFromInline static let key: pthread_key_t = {
        var key = pthread_key_t()
        pthread_key_create(&key, nil)
        return key
    }()

    /// Opens `owner`'s window on this thread; returns the one it replaces.
    @inlinable
    static func open(for owner: AnyObject) -> UnsafeMutableRawPointer? {
        let outer = pthread_getspecific(key)
        pthread_setspecific(key, Unmanaged.passUnretained(owner).toOpaque())
        return outer
    }

    /// Puts back the window `open` replaced.
    @inlinable
    static func restore(_ outer: UnsafeMutableRawPointer?) {
        pthread_setspecific(key, outer)
    }

    /// Whether this thread is in `owner`'s window.
    @inlinable
    static func isOpen(for owner: AnyObject) -> Bool {
        pthread_getspecific(key) == Unmanaged.passUnretained(owner).toOpaque()
    }
}
