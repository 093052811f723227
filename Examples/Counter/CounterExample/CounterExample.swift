import CounterFeature
import Foundation
import ReactorFlow

/// Taps the counter a few times on real time and prints every state the view would render.
@main
struct CounterExample {
    static func main() async {
        let usage = "usage: swift run CounterExample   (taps a counter three times and prints every state; no options)\n"
        let arguments = Array(CommandLine.arguments.dropFirst())
        if arguments == ["--help"] || arguments == ["-h"] {
            print(usage, terminator: "")
            return
        }
        guard arguments.isEmpty else {
            FileHandle.standardError.write(Data(("error: unexpected argument '\(arguments[0])'\n" + usage).utf8))
            exit(2)
        }
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
