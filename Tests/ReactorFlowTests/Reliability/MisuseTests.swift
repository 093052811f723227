import Foundation
import ReactorFlow
import ReactorFlowTesting
import Testing

@MainActor
final class NillingView: View {
    var disposeBag = DisposeBag()
    var seen: [Int] = []

    func bind(reactor: ProbeReactor) {
        reactor.state.map(\.value).subscribe(onNext: { [weak self] value in
            guard let self else { return }
            self.seen.append(value)
            if value == 1 { self.reactor = nil } // unbinds from inside its own callback
        }).disposed(by: disposeBag)
    }
}

@Suite("Misuse: documented results, never a crash")
@MainActor
struct MisuseTests {
    @Test("nil-ing the reactor inside a state callback unbinds at once")
    func nilReactorDuringCallback() {
        let reactor = ProbeReactor()
        let view = NillingView()
        view.reactor = reactor
        reactor.action.onNext(.add(1))
        reactor.action.onNext(.add(1))
        #expect(view.seen == [0, 1])
        #expect(view.reactor == nil)
        #expect(reactor.currentState.value == 2)
    }

    @Test("binding a view twice to the same reactor leaves one live binding")
    func bindTwice() {
        let reactor = ProbeReactor()
        let view = CounterView()
        view.reactor = reactor
        view.reactor = reactor
        reactor.action.onNext(.add(5))
        #expect(view.shownValues == [0, 0, 5])
        #expect(view.bindCount == 2)
    }

    @Test("an async mutation that throws ends only its stream and is reported")
    func throwingAsyncMutation() async {
        let collected = DiagnosticsCollector()
        defer { collected.stop() }
        let reactor = ThrowingReactor()
        await reactor.send(.fail)
        await reactor.send(.ok)
        #expect(reactor.currentState == 1)
        #expect(collected.matching("ThrowingReactor.mutate(action: fail)").count == 1)
    }

    @Test("a subject after its end, a disposable disposed twice, a dispose bag disposed twice")
    func repeatedEnds() {
        let subject = PublishSubject<Int>()
        subject.onCompleted()
        subject.onCompleted()
        subject.onError(TestError())
        subject.onNext(1)
        #expect(subject.log().0.events == [.completed])
        let bag = DisposeBag()
        let subscription = subject.subscribe()
        subscription.disposed(by: bag)
        bag.dispose()
        bag.dispose()
        subscription.dispose()
        #expect(bag.isDisposed)
    }

    @Test("releasing 10,000 reactors bound to views releases every reactor and view")
    func reactorAndViewLifetime() {
        var weakReactors: [WeakBox<ProbeReactor>] = []
        var weakViews: [WeakBox<CounterView>] = []
        for _ in 0..<10_000 {
            let reactor = ProbeReactor()
            let view = CounterView()
            view.reactor = reactor
            reactor.action.onNext(.add(1))
            weakReactors.append(WeakBox(reactor))
            weakViews.append(WeakBox(view))
        }
        #expect(weakReactors.allSatisfy { $0.value == nil })
        #expect(weakViews.allSatisfy { $0.value == nil })
    }
}

final class ThrowingReactor: Reactor {
    enum Action { case fail, ok }
    let initialState = 0
    let reactorStorage = ReactorStorage()

    func mutate(action: Action) -> Observable<Int> {
        switch action {
        case .fail: return .run { _ in throw TestError("async") }
        case .ok: return .run { send in send(1) }
        }
    }

    func reduce(state: Int, mutation: Int) -> Int { state + mutation }
}
