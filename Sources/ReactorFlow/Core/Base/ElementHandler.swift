/// A subscriber's element handler, in an object of its own: a subject calls it through an unretained reference
/// (see `SubjectSubscription.deliverKeepingLock(element:thread:eventsOutOfLine:)`).
///
/// Calling a closure kept in a variable costs a reference-count pair on its context, since nothing stops the
/// variable from changing during the call. A constant of an object the caller holds cannot change, so calling
/// `receive` costs nothing more than the call: per subscriber and element, that is two atomic operations fewer. The
/// subscription keeps the object alive for the call instead, by leaving its release to the delivering thread when
/// it is disposed during one.
@usableFromInline
final class ElementHandler<Element> {
    @usableFromInline let receive: (Element) -> Void

    @inlinable @inline(__always)
    init(_ receive: @escaping (Element) -> Void) {
        self.receive = receive
    }

    /// Calls `handler`, which the caller keeps alive for the call, with `element`. A function, not a call at the
    /// caller's site: passed as an argument, the handler is borrowed, where read from a field and called inline it
    /// was retained and released per element. Never inlined: it is made once per element type, and shared by every
    /// chain that sends that type.
    @inlinable @inline(never)
    static func send(_ element: Element, to handler: ElementHandler) {
        handler.receive(element)
    }
}
