import Foundation
import ReactorFlow
import ReactorFlowTesting
import Testing

extension MainActor {
    /// True: the test runs on the main actor (asserting it would trap otherwise).
    static func assertIsolatedOrMainQueue() -> Bool {
        MainActor.assertIsolated()
        return true
    }
}

@MainActor
final class CounterView: View {
    var disposeBag = DisposeBag()
    var bindCount = 0
    var shownValues: [Int] = []
    var sendIncrease: (() -> Void)?

    func bind(reactor: ProbeReactor) {
        bindCount += 1
        reactor.state.map(\.value)
            .subscribe(onNext: { [weak self] value in self?.shownValues.append(value) })
            .disposed(by: disposeBag)
        sendIncrease = { [weak reactor] in reactor?.action.onNext(.add(1)) }
    }
}

@Suite("View and Stub (D)")
@MainActor
struct ViewAndStubTests {
    @Test("D1 assigning a reactor binds once per assignment; nil unbinds; the reactor dies with the view")
    func viewBinding() {
        let view = CounterView()
        var reactor: ProbeReactor? = ProbeReactor()
        weak let weakReactor = reactor
        view.reactor = reactor
        #expect(view.bindCount == 1)
        #expect(view.reactor === reactor)
        reactor?.action.onNext(.add(2))
        #expect(view.shownValues == [0, 2])

        view.reactor = reactor
        #expect(view.bindCount == 2)
        #expect(view.shownValues == [0, 2, 2], "the old binding was disposed; the new one replays once")

        view.reactor = nil
        reactor?.action.onNext(.add(1))
        #expect(view.shownValues == [0, 2, 2])
        #expect(view.reactor == nil)

        view.reactor = reactor
        reactor = nil
        #expect(weakReactor != nil, "the view holds its reactor")
        view.disposeBag = DisposeBag()
        #expect(weakReactor == nil, "and lets it go with its bag")
    }

    @Test("B11 a @MainActor view class binds to a reactor in Swift 6 mode without warnings")
    func mainActorViewBinds() {
        let view = CounterView()
        let reactor = ProbeReactor()
        view.reactor = reactor
        reactor.action.onNext(.add(3))
        #expect(view.shownValues == [0, 3])
        #expect(MainActor.assertIsolatedOrMainQueue())
    }

    @Test("D1 the reactor is released with the view")
    func reactorDiesWithView() {
        weak var weakReactor: ProbeReactor?
        do {
            let view = CounterView()
            let reactor = ProbeReactor()
            weakReactor = reactor
            view.reactor = reactor
        }
        #expect(weakReactor == nil)
    }

    @Test("D2 with the stub enabled, actions are recorded, mutate and reduce never run, stub state drives the view")
    func stub() {
        let reactor = ProbeReactor()
        reactor.isStubEnabled = true
        let view = CounterView()
        view.reactor = reactor
        view.sendIncrease?()
        view.sendIncrease?()
        #expect(reactor.stub.actions == [.add(1), .add(1)])
        #expect(reactor.mutateCalls.count == 0)
        #expect(reactor.reduceCalls.count == 0)
        reactor.stub.state.value = ProbeReactor.State(value: 42)
        #expect(view.shownValues == [0, 42])
        #expect(reactor.currentState.value == 42)
        reactor.stub.state.accept(ProbeReactor.State(value: 7))
        #expect(view.shownValues == [0, 42, 7])
    }

    @Test("D2 enabling the stub after first use is reported and has no effect")
    func stubTooLate() {
        let collected = DiagnosticsCollector()
        defer { collected.stop() }
        let reactor = ProbeReactor()
        reactor.action.onNext(.add(1))
        reactor.isStubEnabled = true
        reactor.action.onNext(.add(1))
        #expect(reactor.currentState.value == 2)
        #expect(collected.matching("stubEnabledTooLate").count >= 1)
    }
}
