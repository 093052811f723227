import LoginFeature
import ReactorFlow

/// The profile badge's view: it prints its title whenever it changes.
@MainActor
final class BadgeView: View {
    var disposeBag = DisposeBag()
    private let timeline: Timeline

    init(timeline: Timeline) {
        self.timeline = timeline
    }

    func bind(reactor: ProfileBadgeReactor) {
        let timeline = self.timeline
        reactor.state.map(\.title).distinctUntilChanged().skip(1)
            .subscribe(onNext: { timeline.log("feature", "badge shows \"\($0)\"") })
            .disposed(by: disposeBag)
    }
}

/// The settings screen's view: it prints the account line whenever it changes.
@MainActor
final class SettingsView: View {
    var disposeBag = DisposeBag()
    private let timeline: Timeline

    init(timeline: Timeline) {
        self.timeline = timeline
    }

    func bind(reactor: SettingsReactor) {
        let timeline = self.timeline
        reactor.state.distinctUntilChanged(at: \.account).skip(1)
            .subscribe(onNext: { timeline.log("feature", "settings shows \"\($0.account)\", logout enabled: \($0.isLogoutEnabled)") })
            .disposed(by: disposeBag)
    }
}
