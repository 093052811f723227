import CounterFeature
import Foundation
import ReactorFlow

/// Taps the counter a few times on real time and prints every state the view would render.
@main
struct CounterExample {
    static func main() async {
        let start = Date()
        let reactor = CounterReactor(delayScheduler: SerialDispatchQueueScheduler(qos: .userInitiated), delay: .milliseconds(200))
        let bag = DisposeBag()
        reactor.state.subscribe(onNext: { state in
            let time = Int(Date().timeIntervalSince(start) * 1000)
            print(String(format: "%5d ms  ", time) + "value \(state.value)\(state.isLoading ? "  (loading…)" : "")")
        }).disposed(by: bag)

        for action in [CounterReactor.Action.increase, .increase, .decrease] {
            print("        tap \(action)")
            await reactor.send(action)
        }
        print("Final value: \(reactor.currentState.value)")
    }
}
