extension Observable where Element: FixedWidthInteger {
    /// Emits `0` after `dueTime` and completes; with a `period`, keeps emitting `1, 2, …` every `period`.
    ///
    /// ```swift
    /// Observable<Int>.timer(.seconds(1), scheduler: MainScheduler.instance)
    /// ```
    public static func timer(_ dueTime: RxTimeInterval, period: RxTimeInterval? = nil, scheduler: SchedulerType) -> Observable<Element> {
        make { sink in
            guard let period else {
                return scheduler.scheduleRelative(dueTime) {
                    sink.onNext(0)
                    sink.onCompleted()
                }
            }
            var count: Element = 0
            return scheduler.schedulePeriodic(startAfter: dueTime, period: period) {
                sink.onNext(count)
                count &+= 1
            }
        }
    }

    /// Emits `0, 1, 2, …`, one every `period`, starting one `period` after subscription.
    ///
    /// ```swift
    /// Observable<Int>.interval(.milliseconds(100), scheduler: scheduler)
    /// ```
    public static func interval(_ period: RxTimeInterval, scheduler: SchedulerType) -> Observable<Element> {
        timer(period, period: period, scheduler: scheduler)
    }
}
