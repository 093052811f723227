import Foundation
import ReactorFlow
import ReactorFlowTesting
import Testing

/// A helper as RxSwift code writes one, constrained by `RxAbstractInteger`.
private extension ObservableType where Element: RxAbstractInteger {
    func doubled() -> Observable<Element> { map { $0 * 2 } }
}

@Suite("A9 RxSwift's names and shapes")
struct RxSwiftNamesTests {
    @Test("A9 RxSwift's other type names: RxAbstractInteger, each subject's SubjectObserverType, the dispatch schedulers' Time and TimeInterval")
    func typeNames() {
        let scheduler = TestScheduler(initialClock: 0)
        let observer = scheduler.start { Observable<Int>.interval(.seconds(1), scheduler: scheduler).take(2).doubled() }
        #expect(observer.events == [.next(201, 0), .next(202, 2), .completed(202)])

        let publish: PublishSubject<Int>.SubjectObserverType = PublishSubject<Int>().asObserver()
        let behavior: BehaviorSubject<Int>.SubjectObserverType = BehaviorSubject(value: 1).asObserver()
        let replay: ReplaySubject<Int>.SubjectObserverType = ReplaySubject<Int>.create(bufferSize: 1).asObserver()
        let async: AsyncSubject<Int>.SubjectObserverType = AsyncSubject<Int>().asObserver()
        #expect(type(of: publish) == PublishSubject<Int>.self)
        #expect(type(of: behavior) == BehaviorSubject<Int>.self)
        #expect(type(of: replay) == ReplaySubject<Int>.self)
        #expect(type(of: async) == AsyncSubject<Int>.self)

        #expect(SerialDispatchQueueScheduler.Time.self == Date.self)
        #expect(MainScheduler.Time.self == Date.self)
        #expect(ConcurrentDispatchQueueScheduler.TimeInterval.self == Double.self)
        #expect(ConcurrentMainScheduler.TimeInterval.self == Double.self)
        let later: SerialDispatchQueueScheduler.Time = Date(timeIntervalSince1970: 0).addingTimeInterval(SerialDispatchQueueScheduler.TimeInterval(2))
        #expect(later == Date(timeIntervalSince1970: 2))
    }

    @Test("A9 subscribe, bind and dispose keep RxSwift's labels and order of callbacks")
    func subscribeShapes() {
        var log: [String] = []
        let bag = DisposeBag()
        Observable.of(1, 2).subscribe(
            onNext: { log.append("next \($0)") },
            onError: { log.append("error \($0)") },
            onCompleted: { log.append("completed") },
            onDisposed: { log.append("disposed") }
        ).disposed(by: bag)
        let relay = BehaviorRelay(value: 0)
        Observable.just(5).bind(to: relay).disposed(by: bag)
        Observable.just(6).bind(onNext: { log.append("bound \($0)") }).disposed(by: bag)
        let made = Observable<Int>.create { observer in
            observer.onNext(7)
            observer.onCompleted()
            return Disposables.create { log.append("create disposed") }
        }
        made.asObservable().subscribe(onNext: { log.append("made \($0)") }).disposed(by: bag)
        #expect(log == ["next 1", "next 2", "completed", "disposed", "bound 6", "made 7", "create disposed"])
        #expect(relay.value == 5)
    }
}

/// Runs code written with RxSwift 5's names. The witness is deprecated, so calling the deprecated names inside it
/// warns nobody; the test calls it through the protocol. (`.ci/rxswift5-names` checks the warnings a user sees.)
protocol RxSwift5Code {
    func run(on scheduler: TestScheduler) -> [String]
}

struct RxSwift5Snippets: RxSwift5Code {
    @available(*, deprecated, message: "exercises RxSwift 5's deprecated names on purpose")
    func run(on scheduler: TestScheduler) -> [String] {
        var log: [String] = []
        let bag = DisposeBag()
        let stop = PublishSubject<Void>()
        let start = PublishSubject<Void>()
        Observable.of(1, 2, 3, 4)
            .takeWhile { $0 < 4 }
            .skipWhile { $0 < 2 }
            .subscribe(onNext: { log.append("while \($0)") }).disposed(by: bag)
        Observable<Int>.error(TestError()).catchError { _ in .just(9) }
            .subscribe(onNext: { log.append("catchError \($0)") }).disposed(by: bag)
        Observable<Int>.error(TestError()).catchErrorJustReturn(8)
            .subscribe(onNext: { log.append("catchErrorJustReturn \($0)") }).disposed(by: bag)
        Observable.of(5, 6, 7).elementAt(1)
            .subscribe(onNext: { log.append("elementAt \($0)") }).disposed(by: bag)
        let values = PublishSubject<Int>()
        values.skipUntil(start).takeUntil(stop)
            .subscribe(onNext: { log.append("until \($0)") }, onCompleted: { log.append("until completed") }).disposed(by: bag)
        values.onNext(1)
        start.onNext(())
        values.onNext(2)
        stop.onNext(())
        values.onNext(3)
        Observable.just(4).observeOn(scheduler).subscribeOn(scheduler)
            .subscribe(onNext: { log.append("scheduled \($0) at \(scheduler.clock)") }).disposed(by: bag)
        scheduler.start()
        Single<Int>.error(TestError()).catchErrorJustReturn(1).observeOn(CurrentThreadScheduler.instance)
            .subscribe(onSuccess: { log.append("single \($0)") }, onError: { _ in }).disposed(by: bag)
        let element: Observable<Int>.E = 10
        log.append("E \(element)")
        Observable.of(1, 5, 2).takeUntil(.inclusive) { $0 > 3 }
            .subscribe(onNext: { log.append("takeUntil predicate \($0)") }).disposed(by: bag)
        Observable.catchError([Observable<Int>.error(TestError()), .just(7)])
            .subscribe(onNext: { log.append("catchError sequence \($0)") }).disposed(by: bag)
        let timed = TestScheduler(initialClock: 0)
        let readings = timed.createHotObservable([.next(205, 1), .next(215, 2)])
        timed.advanceTo(200)
        readings.take(.seconds(10), scheduler: timed)
            .subscribe(onNext: { log.append("take duration \($0)") }, onCompleted: { log.append("take duration completed at \(timed.clock)") })
            .disposed(by: bag)
        timed.start()
        return log
    }
}

extension RxSwiftNamesTests {
    @Test("A9 RxSwift 5's names still compile and behave as their RxSwift 6 replacements")
    func rxSwift5Names() {
        let code: any RxSwift5Code = RxSwift5Snippets()
        #expect(code.run(on: TestScheduler(initialClock: 0)) == [
            "while 2", "while 3", "catchError 9", "catchErrorJustReturn 8", "elementAt 6",
            "until 2", "until completed", "scheduled 4 at 2", "single 1", "E 10",
            "takeUntil predicate 1", "takeUntil predicate 5", "catchError sequence 7",
            "take duration 1", "take duration completed at 210",
        ])
    }
}

extension RxSwiftNamesTests {
    @Test("A9 subscribe(with:) and bind(with:) pass the object while it lives and call nothing once it is gone")
    func withObject() {
        final class Screen { var shown: [String] = [] }
        var screen: Screen? = Screen()
        weak let weakScreen = screen
        let subject = PublishSubject<Int>()
        let bag = DisposeBag()
        subject.subscribe(with: screen!, onNext: { $0.shown.append("next \($1)") }, onCompleted: { $0.shown.append("completed") })
            .disposed(by: bag)
        subject.bind(with: screen!) { $0.shown.append("bound \($1)") }.disposed(by: bag)
        subject.onNext(1)
        #expect(screen?.shown == ["next 1", "bound 1"])
        screen = nil
        #expect(weakScreen == nil, "neither keeps the object")
        subject.onNext(2) // nothing to call, and no crash
        subject.onCompleted()
    }
}
