import LoginFeature
import ReactorFlow

/// The login screen as a `View`: it renders state and reacts to pulses. It binds its pulses with `.unconsumed`,
/// so binding again (a re-created screen) neither re-shows an alert nor navigates again.
@MainActor
final class LoginScreen: View {
    var disposeBag = DisposeBag()
    private let name: String
    private let timeline: Timeline
    var render: ((LoginReactor.State) -> Void)?

    init(name: String, timeline: Timeline) {
        self.name = name
        self.timeline = timeline
    }

    func bind(reactor: LoginReactor) {
        let timeline = self.timeline
        let name = self.name
        reactor.state
            .distinctUntilChanged { $0.isLoading == $1.isLoading && $0.user == $1.user }
            .subscribe(onNext: { [weak self] state in
                timeline.log("state", "\(name): isLoading=\(state.isLoading) user=\(state.user?.description ?? "nil")")
                self?.render?(state)
            })
            .disposed(by: disposeBag)
        reactor.pulse(\.$alert, delivery: .unconsumed)
            .compactMap { $0 }
            .subscribe(onNext: { timeline.log("ALERT", "\(name) shows: \"\($0)\"") })
            .disposed(by: disposeBag)
        reactor.pulse(\.$route, delivery: .unconsumed)
            .compactMap { $0 }
            .subscribe(onNext: { timeline.log("NAVIGATE", "\(name) goes to \($0)") })
            .disposed(by: disposeBag)
    }
}
