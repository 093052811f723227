/// The rules of `throttle`, apart from locking and timers. Times are nanoseconds on the scheduler's clock.
///
/// The first element, and any element arriving `dueTime` or more after the last emission, is emitted at once.
/// Within the window, with `latest`, the newest element is kept and emitted when the window ends (starting a new
/// window); without `latest`, it is dropped. A completion waits for a pending element to be emitted.
struct ThrottleStateMachine<Element> {
    enum NextAction {
        case emit(Element)
        case startTimer(afterNanoseconds: Int64)
        case none
    }

    private let window: Int64
    private let latest: Bool
    private var lastEmission: Int64?
    private var pending: Element?
    private var timerRunning = false
    private var completePending = false

    init(windowNanoseconds: Int64, latest: Bool) {
        self.window = windowNanoseconds
        self.latest = latest
    }

    /// An element arrived: what to do, and the pending element it replaced, for the caller to release after its
    /// lock (rule B12).
    mutating func next(_ element: Element, now: Int64) -> (action: NextAction, replaced: Element?) {
        if let lastEmission, now.saturatingSubtracting(lastEmission) < window {
            guard latest else { return (.none, nil) }
            let replaced = exchange(&pending, with: element)
            if timerRunning { return (.none, replaced) }
            timerRunning = true
            return (.startTimer(afterNanoseconds: window.saturatingSubtracting(now.saturatingSubtracting(lastEmission))), replaced)
        }
        lastEmission = now
        return (.emit(element), pending.take())
    }

    /// The window timer fired: the element to emit and whether to complete afterwards.
    mutating func timerFired(now: Int64) -> (element: Element?, complete: Bool) {
        timerRunning = false
        let element = pending
        pending = nil
        if element != nil { lastEmission = now }
        return (element, completePending)
    }

    /// The source completed: whether to complete now (otherwise the timer completes after emitting).
    mutating func completed() -> Bool {
        guard pending != nil && timerRunning else { return true }
        completePending = true
        return false
    }
}
