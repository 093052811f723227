import ReactorFlow
import Testing

@Suite("A9 RxSwift's names and shapes")
struct RxSwiftNamesTests {
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
