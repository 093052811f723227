extension ObservableType {
    /// Emits `initialState`, then each state `iterate` makes, while `condition` holds; then completes. Each step is
    /// scheduled on `scheduler` (by default trampolined on the current thread, so a long run cannot overflow the
    /// stack and stops as soon as it is disposed). A thrown error fails the stream.
    ///
    /// ```swift
    /// Observable.generate(initialState: 1, condition: { $0 < 100 }, iterate: { $0 * 2 }) // 1, 2, 4 … 64
    /// ```
    public static func generate(initialState: Element, condition: @escaping (Element) throws -> Bool,
                                scheduler: ImmediateSchedulerType = CurrentThreadScheduler.instance,
                                iterate: @escaping (Element) throws -> Element) -> Observable<Element> {
        Observable<Element>.make { sink in
            var state = initialState
            var isFirst = true
            return Observable<Element>.loop(on: scheduler, sink: sink) {
                do {
                    if !isFirst { state = try iterate(state) }
                    isFirst = false
                    guard try condition(state) else {
                        sink.onCompleted()
                        return false
                    }
                    sink.onNext(state)
                    return true
                } catch {
                    sink.onError(error)
                    return false
                }
            }
        }
    }

    /// Emits `element` forever, each on `scheduler` (trampolined on the current thread by default): end it with
    /// `take` or a dispose.
    ///
    /// ```swift
    /// Observable.repeatElement("tick").take(3)
    /// ```
    public static func repeatElement(_ element: Element, scheduler: ImmediateSchedulerType = CurrentThreadScheduler.instance) -> Observable<Element> {
        Observable<Element>.make { sink in
            Observable<Element>.loop(on: scheduler, sink: sink) {
                sink.onNext(element)
                return true
            }
        }
    }

    /// Runs `step` on `scheduler` again after each `true`, each time as a new scheduled item, until it returns
    /// `false` or `sink` is disposed.
    static func loop(on scheduler: ImmediateSchedulerType, sink: Sink<Element>, _ step: @escaping () -> Bool) -> Disposable {
        guard !sink.isDisposed else { return Disposables.create() }
        // Each step is scheduled from inside the one before: `scheduleRecursive` keeps it when the scheduler runs the
        // first step at once and queues the next (`MainScheduler.instance` on the main queue).
        return scheduler.scheduleRecursive(()) { _, recurse in
            guard !sink.isDisposed, step() else { return }
            recurse(())
        }
    }
}

extension ObservableType where Element: FixedWidthInteger {
    /// Emits `count` consecutive integers from `start`, each on `scheduler` (trampolined on the current thread by
    /// default), then completes. A negative `count`, or one that would overflow `Element`, fails with
    /// `RxError.argumentOutOfRange`.
    ///
    /// ```swift
    /// Observable.range(start: 1, count: 3) // 1, 2, 3
    /// ```
    public static func range(start: Element, count: Element, scheduler: ImmediateSchedulerType = CurrentThreadScheduler.instance) -> Observable<Element> {
        guard count >= 0, !start.addingReportingOverflow(count > 0 ? count - 1 : 0).overflow else {
            return .error(RxError.argumentOutOfRange)
        }
        return Observable<Element>.make { sink in
            var index: Element = 0
            return Observable<Element>.loop(on: scheduler, sink: sink) {
                guard index < count else {
                    sink.onCompleted()
                    return false
                }
                sink.onNext(start + index)
                index += 1
                return true
            }
        }
    }
}
