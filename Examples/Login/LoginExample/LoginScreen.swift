import LoginFeature
import ReactorFlow

/// The login screen as a `View`: it renders state and reacts to pulses, binding them as a UIKit screen would, with
/// a `Driver` for state (delivered on the main scheduler, latest value first) and `Signal`s for one-shot events. It
/// binds its pulses with `.unconsumed`, so binding again (a re-created screen) neither re-shows an alert nor
/// navigates again.
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
            .asDriver(onErrorJustReturn: reactor.initialState)   // state never fails; the Driver says so in its type
            .drive(onNext: { [weak self] state in
                timeline.log("state", "\(name): isLoading=\(state.isLoading) user=\(state.user?.description ?? "nil")")
                self?.render?(state)
            })
            .disposed(by: disposeBag)
        reactor.pulse(\.$alert, delivery: .unconsumed)
            .compactMap { $0 }
            .asSignal(onErrorSignalWith: .empty())
            .emit(onNext: { timeline.log("ALERT", "\(name) shows: \"\($0)\"") })
            .disposed(by: disposeBag)
        reactor.pulse(\.$route, delivery: .unconsumed)
            .compactMap { $0 }
            .asSignal(onErrorSignalWith: .empty())
            .emit(onNext: { timeline.log("NAVIGATE", "\(name) goes to \($0)") })
            .disposed(by: disposeBag)
    }
}
