import Foundation
import ReactorFlow
import ReactorFlowTesting
import Testing

/// Runs `body` with `Driver` and `Signal` delivering on `scheduler`. Tests that mock the sharing scheduler are
/// serialized: it is one process-wide setting, as in RxCocoa.
func withSharing<T>(on scheduler: TestScheduler, _ body: () throws -> T) rethrows -> T {
    var result: T?
    try SharingScheduler.mock(scheduler: scheduler) { result = try body() }
    return result!
}

@Suite("A12 Driver, Signal and Binder", .serialized)
struct DriverSignalTests {
    let scheduler = TestScheduler(initialClock: 0)

    @Test("A12 asDriver(onErrorJustReturn:) delivers on the sharing scheduler and replaces an error with a last element")
    func driverFromObservable() {
        let source = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .error(230, TestError())])
        let results = withSharing(on: scheduler) { scheduler.start { source.asDriver(onErrorJustReturn: -1) } }
        // Delivered through the scheduler: one tick later, RxTest's processing delay.
        #expect(results.events == [.next(211, 1), .next(221, 2), .next(231, -1), .completed(231)])
    }

    @Test("A12 a Driver shares one subscription and replays its latest element; a Signal shares and replays nothing")
    func sharingAndReplay() {
        let source = scheduler.createColdObservable([.next(10, "a"), .next(20, "b")])
        var driverLog: [String] = []
        var signalLog: [String] = []
        let bag = DisposeBag()
        withSharing(on: scheduler) {
            let driver = source.asDriver(onErrorJustReturn: "")
            let signal = source.asSignal(onErrorJustReturn: "")
            scheduler.scheduleAt(100) {
                driver.drive(onNext: { driverLog.append("first \($0)") }).disposed(by: bag)
                signal.emit(onNext: { signalLog.append("first \($0)") }).disposed(by: bag)
            }
            scheduler.scheduleAt(115) {
                driver.drive(onNext: { driverLog.append("second \($0)") }).disposed(by: bag)
                signal.emit(onNext: { signalLog.append("second \($0)") }).disposed(by: bag)
            }
            scheduler.advance(to: 200)
        }
        #expect(driverLog == ["first a", "second a", "first b", "second b"])
        #expect(signalLog == ["first a", "first b", "second b"])
        #expect(source.subscriptions.count == 2, "one for the Driver, one for the Signal")
    }

    @Test("A12 onErrorDriveWith, onErrorRecover and the Signal forms switch to a fallback")
    func fallbacks() {
        var log: [String] = []
        withSharing(on: scheduler) {
            _ = Observable<Int>.error(TestError()).asDriver(onErrorDriveWith: .just(1)).drive(onNext: { log.append("drive-with \($0)") })
            _ = Observable<Int>.error(TestError()).asDriver(onErrorRecover: { _ in .of(2, 3) }).drive(onNext: { log.append("recover \($0)") })
            _ = Observable<Int>.error(TestError()).asSignal(onErrorSignalWith: .just(4)).emit(onNext: { log.append("signal-with \($0)") })
            _ = Observable<Int>.error(TestError()).asSignal(onErrorRecover: { _ in .just(5) }).emit(onNext: { log.append("signal-recover \($0)") })
            scheduler.advance(to: 10)
        }
        // `of` sends each element in an action of its own, as RxCocoa does: 3 comes after the actions queued before it.
        #expect(log == ["drive-with 1", "recover 2", "signal-with 4", "signal-recover 5", "recover 3"])
    }

    @Test("A12 relays: asDriver() starts with the current value, asSignal() sends only new ones; drive and emit feed relays and observers")
    func relays() {
        let state = BehaviorRelay(value: 0)
        let events = PublishRelay<String>()
        let drivenRelay = BehaviorRelay(value: -1)
        let emittedRelay = PublishRelay<String>()
        var emitted: [String] = []
        let observer = scheduler.createObserver(Int.self)
        withSharing(on: scheduler) {
            let bag = DisposeBag()
            state.asDriver().drive(drivenRelay).disposed(by: bag)
            state.asDriver().map { $0 * 10 }.drive(observer).disposed(by: bag)
            emittedRelay.subscribe(onNext: { emitted.append($0) }).disposed(by: bag)
            events.asSignal().emit(to: emittedRelay).disposed(by: bag)
            scheduler.advance(to: 5)
            state.accept(1)
            events.accept("tap")
            scheduler.advance(to: 10)
        }
        #expect(drivenRelay.value == 1)
        #expect(observer.events == [.next(1, 0), .next(6, 10)])
        #expect(emitted == ["tap"])
    }

    @Test("A12 map, filter, distinctUntilChanged, startWith and flatMapLatest on a Driver")
    func driverOperators() {
        let source = scheduler.createHotObservable([.next(210, 1), .next(220, 1), .next(230, 2), .next(240, 3)])
        let results = withSharing(on: scheduler) {
            scheduler.start {
                source.asDriver(onErrorJustReturn: 0)
                    .distinctUntilChanged()
                    .filter { $0 != 3 }
                    .map { "v\($0)" }
                    .startWith("start")
                    .flatMapLatest { Driver.just("\($0)!") }
            }
        }
        // startWith is synchronous; each Driver.just hops through the scheduler: a tick later.
        #expect(results.events == [.next(201, "start!"), .next(212, "v1!"), .next(232, "v2!")])
    }

    @Test("A12 withLatestFrom, combineLatest and merge on Drivers")
    func combiningDrivers() {
        let a = scheduler.createHotObservable([.next(210, 1), .next(230, 2)])
        let b = scheduler.createHotObservable([.next(220, "x"), .next(240, "y")])
        let combined = withSharing(on: scheduler) {
            scheduler.start {
                Driver.combineLatest(a.asDriver(onErrorJustReturn: 0), b.asDriver(onErrorJustReturn: "")) { "\($0)\($1)" }
            }
        }
        #expect(combined.events == [.next(221, "1x"), .next(231, "2x"), .next(241, "2y")])

        let other = TestScheduler(initialClock: 0)
        let c = other.createHotObservable([.next(210, 1), .next(230, 2)])
        let d = other.createHotObservable([.next(220, 10)])
        let results = withSharing(on: other) {
            other.start {
                Driver.merge(c.asDriver(onErrorJustReturn: 0), d.asDriver(onErrorJustReturn: 0))
                    .withLatestFrom(d.asDriver(onErrorJustReturn: 0)) { $0 + $1 }
            }
        }
        // 1 at 211 finds no latest element of d yet; d's own 10 at 221 finds it (withLatestFrom subscribes to d first).
        #expect(results.events == [.next(221, 20), .next(231, 12)])
    }

    @Test("A12 a Binder applies elements to its target on its scheduler, holds it weakly and reports errors")
    func binder() {
        final class Label { var text = "" }
        var label: Label? = Label()
        let binder = Binder(label!, scheduler: scheduler) { label, text in label.text = text }
        binder.onNext("hello")
        #expect(label?.text == "", "applied on the scheduler, not at once")
        scheduler.advance(to: 1)
        #expect(label?.text == "hello")

        weak let weakLabel = label
        binder.onNext("late")
        label = nil
        #expect(weakLabel == nil, "the binder does not keep its target")
        scheduler.advance(to: 2) // nothing to apply to, and no crash

        let collected = DiagnosticsCollector()
        defer { collected.stop() }
        let other = Label()
        Binder<String>(other, scheduler: scheduler) { _, _ in }.on(.error(TestError("binder-error")))
        #expect(collected.matching("binder-error").count == 1)
    }

    @Test("A12 .rx gives every writable property of an NSObject or a ReactiveCompatible class as a Binder on the main scheduler, and takes extensions")
    func reactiveNamespace() async {
        // MainScheduler.instance applies at once on the main queue, or queued behind other tests' main-queue work:
        // the values are read by a block queued after the bindings.
        let applied = await withCheckedContinuation { (continuation: CheckedContinuation<(String?, Double), Never>) in
            DispatchQueue.main.async {
                let targets = Shared((RxLabel(), RxPlayer()))
                _ = Observable.just("hello").bind(to: targets.value.0.rx.text)
                _ = Observable.of(0.2, 0.8).bind(to: targets.value.1.rx.volume)
                DispatchQueue.main.async { continuation.resume(returning: (targets.value.0.text, targets.value.1.volume)) }
            }
        }
        #expect(applied.0 == "hello")
        #expect(applied.1 == 0.8)

        let label = RxLabel()
        Observable.of("a", "b").bind(to: label.rx.shout).dispose()
        #expect(label.text == "B!")
        #expect(RxLabel.rx.defaultText == "–")
        let erased: RxObservable<Int> = .just(1)
        #expect(erased.log().0.elements == [1])
    }
}

/// Control events, control properties and notifications, RxCocoa's platform-neutral traits.
extension DriverSignalTests {
    @Test("A12 a ControlEvent subscribes on the main queue and passes its events on; as a Driver, an error is reported and ends it")
    func controlEvent() async throws {
        let taps = PublishSubject<Int>()
        let log = EventLog<Int>()
        let event = ControlEvent(events: taps)
        let subscription = event.asControlEvent().subscribe(log.observer())
        await mainQueueDrained() // the subscription, queued on the main queue by ConcurrentMainScheduler, has run
        taps.onNext(1)
        taps.onNext(2)
        subscription.dispose()
        taps.onNext(3)
        #expect(log.events == [.next(1), .next(2)])

        #expect(try await ControlEvent(events: Observable.of(4, 5)).asDriver().asObservable().values.collect() == [4, 5])
        #expect(try await ControlEvent(events: Observable.of(6)).asSignal().asObservable().values.collect() == [6])
        #expect(try await Infallible.of(7, 8).debug("infallible").asDriver().asObservable().values.collect() == [7, 8])
        let collected = DiagnosticsCollector()
        defer { collected.stop() }
        let failing = ControlEvent(events: Observable<Int>.error(TestError("control-event")))
        #expect(try await failing.asDriver().asObservable().values.collect() == [])
        #expect(try await failing.asInfallible().asObservable().values.collect() == [])
        #expect(collected.matching("control-event").count == 1)
    }

    @Test("A12 a ControlProperty reads its values and writes through its sink; orEmpty, changed, and an error reported instead of written")
    func controlProperty() async throws {
        let edits = BehaviorSubject<String?>(value: nil)
        let written = EventLog<String?>()
        let property = ControlProperty(values: edits, valueSink: written.observer())
        let texts = EventLog<String>()
        let changes = EventLog<String>()
        let textSubscription = property.orEmpty.subscribe(texts.observer())
        let changeSubscription = property.orEmpty.changed.subscribe(changes.observer())
        await mainQueueDrained()
        edits.onNext("a")
        edits.onNext(nil)
        #expect(texts.elements == ["", "a", ""])
        #expect(changes.elements == ["a", ""])
        textSubscription.dispose()
        changeSubscription.dispose()

        let input = PublishSubject<String>()
        let binding = input.bind(to: property.orEmpty)
        input.onNext("x")
        input.onNext("y")
        let collected = DiagnosticsCollector()
        defer { collected.stop() }
        input.onError(TestError("control-property"))
        #expect(written.events == [.next("x"), .next("y")])
        #expect(collected.matching("control-property").count == 1)
        binding.dispose()
        property.asControlProperty().onCompleted()
        #expect(written.events == [.next("x"), .next("y"), .completed])

        let values = ControlProperty(values: Observable.of(1, 2), valueSink: AnyObserver<Int> { _ in })
        #expect(try await values.asDriver().asObservable().values.collect() == [1, 2])
    }

    @Test("A12 NotificationCenter.rx.notification delivers the posts that match its name and object until disposed")
    func notifications() {
        let center = NotificationCenter()
        let ping = Notification.Name("ReactorFlowTests.ping")
        let sender = NSObject()
        func numbers(_ stream: Observable<Notification>) -> (EventLog<Int>, Disposable) {
            stream.map { $0.userInfo?["n"] as? Int ?? -1 }.log()
        }
        let (pings, pingSubscription) = numbers(center.rx.notification(ping))
        let (fromSender, senderSubscription) = numbers(center.rx.notification(ping, object: sender))
        let (everything, everythingSubscription) = numbers(center.rx.notification(nil))
        center.post(name: ping, object: sender, userInfo: ["n": 1])
        center.post(name: ping, object: NSObject(), userInfo: ["n": 2])
        center.post(name: Notification.Name("ReactorFlowTests.other"), object: sender, userInfo: ["n": 3])
        pingSubscription.dispose()
        everythingSubscription.dispose()
        center.post(name: ping, object: sender, userInfo: ["n": 4])
        senderSubscription.dispose()
        center.post(name: ping, object: sender, userInfo: ["n": 5])
        #expect(pings.events == [.next(1), .next(2)])
        #expect(fromSender.events == [.next(1), .next(4)])
        #expect(everything.elements.filter { $0 > 0 } == [1, 2, 3])
    }
}

/// RxCocoa's remaining `Driver` and `Signal` forms, on a mocked sharing scheduler.
extension DriverSignalTests {
    @Test("A12 Driver.interval and timer tick on the sharing scheduler; switchLatest, concat, from, debug and withUnretained keep a Driver a Driver")
    func driverCreationAndOperators() {
        let ticks = withSharing(on: scheduler) { scheduler.start { Driver<Int>.interval(.seconds(10)).take(3) } }
        #expect(ticks.events == [.next(210, 0), .next(220, 1), .next(230, 2), .completed(230)])
        let clock = TestScheduler(initialClock: 0)
        let timed = withSharing(on: clock) { clock.start { Signal<Int>.timer(.seconds(5), period: .seconds(10)).take(2) } }
        #expect(timed.events == [.next(205, 0), .next(215, 1), .completed(215)])

        // `of` sends each element in an action of its own: the first inner driver sends 1, then is replaced before
        // its 2, queued behind the outer driver's second element, goes out.
        let owner = NSObject()
        let immediate = TestScheduler(initialClock: 0, simulateProcessingDelay: false)
        let combined = withSharing(on: immediate) {
            immediate.start {
                let switched = Driver.of(Driver.of(1, 2), Driver.just(3)).switchLatest()
                let joined = Driver.concat([switched, Driver.from(4...5), Driver.from(optional: 6), Driver<Int>.from(optional: nil)])
                return joined.debug("driver").withUnretained(owner) { _, value in "v\(value)" }.asDriver()
            }
        }
        #expect(combined.events == [.next(200, "v1"), .next(200, "v3"), .next(200, "v4"), .next(200, "v5"), .next(200, "v6"),
                                    .completed(200)])
    }

    @Test("A12 flatMapLatest may turn a Driver into a Signal; drive and emit reach relays of every kind and curried binders")
    func driverRelaysAndStrategies() {
        let results = withSharing(on: scheduler) {
            scheduler.start { Driver.just(1).flatMapLatest { value in Signal.of(value, value + 1) }.asSignal() }
        }
        #expect(results.events.map(\.value) == [.next(1), .next(2), .completed])

        let replay = ReplayRelay<Int>.create(bufferSize: 2)
        let optionalReplay = ReplayRelay<Int?>.create(bufferSize: 2)
        let optionalPublish = PublishRelay<Int?>()
        let (published, _) = optionalPublish.log()
        var curried: [Int] = []
        let bag = DisposeBag()
        withSharing(on: scheduler) {
            bag.insert {
                Driver.of(7, 8).drive(replay)
                Driver.just(9).drive(optionalReplay)
                Signal.just(10).emit(to: optionalPublish)
                Signal.just(11).emit(to: optionalReplay)
            }
            func record(_ stream: Observable<Int>) -> (Int) -> Disposable {
                { offset in stream.subscribe(onNext: { curried.append($0 + offset) }) }
            }
            Driver.just(12).drive(record, curriedArgument: 100).disposed(by: bag)
            scheduler.advance(by: .seconds(5))
        }
        #expect(replay.asObservable().log().0.elements == [7, 8])
        #expect(optionalReplay.asObservable().log().0.elements == [9, 11])
        #expect(published.elements == [10])
        #expect(curried == [112])
    }
}

/// Returns once the main queue has run what was queued on it before this call.
func mainQueueDrained() async {
    await withCheckedContinuation { continuation in DispatchQueue.main.async { continuation.resume() } }
}

final class RxLabel: NSObject {
    var text: String?
}

final class RxPlayer: ReactiveCompatible {
    var volume = 0.5
}

extension Reactive where Base: RxLabel {
    /// Applies at once, on the current thread.
    var shout: Binder<String> {
        Binder(base, scheduler: CurrentThreadScheduler.instance) { label, text in label.text = text.uppercased() + "!" }
    }

    /// Reached through the type: `RxLabel.rx.defaultText`.
    static var defaultText: String { "–" }
}

/// `Driver.combineLatest` and `Driver.zip` for 2 to 8 sources, in the serialized suite: they mock the sharing scheduler.
extension DriverSignalTests {
    @Test("A9 Driver.combineLatest and Driver.zip of 2 to 8, with a result selector and as a tuple, deliver on the sharing scheduler",
          arguments: ArityTests.arities)
    func driverArities(arity: Int) {
        let forms: [([Driver<Int>]) -> Driver<[Int]>] = [Self.combineLatest, Self.combineLatestTuple, Self.zip, Self.zipTuple]
        for form in forms {
            let scheduler = TestScheduler(initialClock: 0)
            let results = withSharing(on: scheduler) {
                scheduler.start { form((0..<arity).map { Driver.just($0) }).asObservable() }
            }
            #expect(results.events == [.next(201, Array(0..<arity)), .completed(201)])
        }
    }

    @Test("A12 a Driver and a Signal turn into Infallibles that deliver as they do")
    func sharedSequencesAsInfallible() {
        let source = scheduler.createHotObservable([.next(210, 1), .next(220, 2)])
        let results = withSharing(on: scheduler) { scheduler.start { source.asDriver(onErrorJustReturn: 0).asInfallible().asObservable() } }
        #expect(results.events == [.next(211, 1), .next(221, 2)])
        let signalClock = TestScheduler(initialClock: 0)
        let signalSource = signalClock.createHotObservable([.next(210, 1)])
        let signal = withSharing(on: signalClock) { signalClock.start { signalSource.asSignal(onErrorJustReturn: 0).asInfallible().asObservable() } }
        #expect(signal.events == [.next(211, 1)])
    }

    @Test("A9 Driver.combineLatest and Driver.zip of a collection, as an array and with a result selector")
    func driverCollections() {
        let forms: [([Driver<Int>]) -> Driver<[Int]>] = [
            { Driver.combineLatest($0) }, { Driver.zip($0) },
            { Driver.combineLatest($0) { $0 } }, { Driver.zip($0) { $0 } },
        ]
        for form in forms {
            let scheduler = TestScheduler(initialClock: 0)
            let results = withSharing(on: scheduler) {
                scheduler.start { form([Driver.just(1), Driver.just(2), Driver.just(3)]).asObservable() }
            }
            #expect(results.events == [.next(201, [1, 2, 3]), .completed(201)])
        }
    }

    static func combineLatest(_ s: [Driver<Int>]) -> Driver<[Int]> {
        switch s.count {
        case 2: Driver.combineLatest(s[0], s[1]) { [$0, $1] }
        case 3: Driver.combineLatest(s[0], s[1], s[2]) { [$0, $1, $2] }
        case 4: Driver.combineLatest(s[0], s[1], s[2], s[3]) { [$0, $1, $2, $3] }
        case 5: Driver.combineLatest(s[0], s[1], s[2], s[3], s[4]) { [$0, $1, $2, $3, $4] }
        case 6: Driver.combineLatest(s[0], s[1], s[2], s[3], s[4], s[5]) { [$0, $1, $2, $3, $4, $5] }
        case 7: Driver.combineLatest(s[0], s[1], s[2], s[3], s[4], s[5], s[6]) { [$0, $1, $2, $3, $4, $5, $6] }
        default: Driver.combineLatest(s[0], s[1], s[2], s[3], s[4], s[5], s[6], s[7]) { [$0, $1, $2, $3, $4, $5, $6, $7] }
        }
    }

    static func combineLatestTuple(_ s: [Driver<Int>]) -> Driver<[Int]> {
        switch s.count {
        case 2: Driver.combineLatest(s[0], s[1]).map(ArityTests.flattened)
        case 3: Driver.combineLatest(s[0], s[1], s[2]).map(ArityTests.flattened)
        case 4: Driver.combineLatest(s[0], s[1], s[2], s[3]).map(ArityTests.flattened)
        case 5: Driver.combineLatest(s[0], s[1], s[2], s[3], s[4]).map(ArityTests.flattened)
        case 6: Driver.combineLatest(s[0], s[1], s[2], s[3], s[4], s[5]).map(ArityTests.flattened)
        case 7: Driver.combineLatest(s[0], s[1], s[2], s[3], s[4], s[5], s[6]).map(ArityTests.flattened)
        default: Driver.combineLatest(s[0], s[1], s[2], s[3], s[4], s[5], s[6], s[7]).map(ArityTests.flattened)
        }
    }

    static func zip(_ s: [Driver<Int>]) -> Driver<[Int]> {
        switch s.count {
        case 2: Driver.zip(s[0], s[1]) { [$0, $1] }
        case 3: Driver.zip(s[0], s[1], s[2]) { [$0, $1, $2] }
        case 4: Driver.zip(s[0], s[1], s[2], s[3]) { [$0, $1, $2, $3] }
        case 5: Driver.zip(s[0], s[1], s[2], s[3], s[4]) { [$0, $1, $2, $3, $4] }
        case 6: Driver.zip(s[0], s[1], s[2], s[3], s[4], s[5]) { [$0, $1, $2, $3, $4, $5] }
        case 7: Driver.zip(s[0], s[1], s[2], s[3], s[4], s[5], s[6]) { [$0, $1, $2, $3, $4, $5, $6] }
        default: Driver.zip(s[0], s[1], s[2], s[3], s[4], s[5], s[6], s[7]) { [$0, $1, $2, $3, $4, $5, $6, $7] }
        }
    }

    static func zipTuple(_ s: [Driver<Int>]) -> Driver<[Int]> {
        switch s.count {
        case 2: Driver.zip(s[0], s[1]).map(ArityTests.flattened)
        case 3: Driver.zip(s[0], s[1], s[2]).map(ArityTests.flattened)
        case 4: Driver.zip(s[0], s[1], s[2], s[3]).map(ArityTests.flattened)
        case 5: Driver.zip(s[0], s[1], s[2], s[3], s[4]).map(ArityTests.flattened)
        case 6: Driver.zip(s[0], s[1], s[2], s[3], s[4], s[5]).map(ArityTests.flattened)
        case 7: Driver.zip(s[0], s[1], s[2], s[3], s[4], s[5], s[6]).map(ArityTests.flattened)
        default: Driver.zip(s[0], s[1], s[2], s[3], s[4], s[5], s[6], s[7]).map(ArityTests.flattened)
        }
    }
}
