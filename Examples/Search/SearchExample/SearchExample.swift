import Foundation
import ReactorFlow
import SearchFeature

/// Types a query the way a person would, scrolls to the end once, and prints what the screen shows.
@main
struct SearchExample {
    static func main() async {
        let usage = "usage: swift run SearchExample QUERY   (for example: swift run SearchExample swift)\n" +
            "QUERY is 1 to \(maximumQueryLength) characters, typed one at a time; the query \"error\" shows a failing search.\n"
        let arguments = Array(CommandLine.arguments.dropFirst())
        if arguments == ["--help"] || arguments == ["-h"] {
            print(usage, terminator: "")
            return
        }
        guard arguments.count == 1, !arguments[0].hasPrefix("-") else {
            FileHandle.standardError.write(Data(("error: expected one query\n" + usage).utf8))
            exit(2)
        }
        let query = arguments[0]
        guard !query.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty, query.count <= maximumQueryLength else {
            FileHandle.standardError.write(Data(("error: the query must have 1 to \(maximumQueryLength) characters, not \(query.count)\n" + usage).utf8))
            exit(2)
        }
        let scheduler = SerialDispatchQueueScheduler(qos: .userInitiated)
        let service = FakeRepositoryService(scheduler: scheduler, latency: .milliseconds(150))
        let reactor = SearchReactor(service: service, scheduler: scheduler, debounce: .milliseconds(100))
        let bag = DisposeBag()
        reactor.pulse(\.$errorMessage).compactMap { $0 }
            .subscribe(onNext: { print("  ⚠︎ \($0)") }).disposed(by: bag)

        print("Typing \"\(query)\" one letter at a time…")
        for length in 1...query.count {
            reactor.action.onNext(.updateQuery(String(query.prefix(length))))
            try? await Task.sleep(for: .milliseconds(30))
        }
        await reactor.send(.updateQuery(query))
        show(reactor.currentState)

        if reactor.currentState.nextPage != nil {
            print("\nScrolled to the end: loading the next page…")
            await reactor.send(.loadNextPage)
            show(reactor.currentState)
        }
        print("\nRequests made: \(service.requestLog.joined(separator: ", ")) (keystrokes before the pause asked nothing)")
    }

    /// Each character is typed 30 ms apart, so a longer query would make a slow demo.
    static let maximumQueryLength = 60

    static func show(_ state: SearchReactor.State) {
        if state.isEmpty {
            print("  No repositories match \"\(state.query)\".")
            return
        }
        print("  \(state.repositories.count) repositories for \"\(state.query)\"\(state.nextPage == nil ? "" : " (more below)"):")
        for name in state.repositories { print("    • \(name)") }
    }
}
