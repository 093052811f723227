import ReactorFlow
import ReactorFlowTesting
import SearchFeature
import Testing

struct SearchHarness {
    let scheduler = TestScheduler(resolution: .milliseconds(1))
    let service: FakeRepositoryService
    let reactor: SearchReactor

    init() {
        service = FakeRepositoryService(scheduler: scheduler, latency: .milliseconds(200), pageSize: 10)
        reactor = SearchReactor(service: service, scheduler: scheduler, debounce: .milliseconds(300))
    }

    func type(_ text: String, every interval: RxTimeInterval = .milliseconds(100)) {
        for length in 1...text.count {
            reactor.action.onNext(.updateQuery(String(text.prefix(length))))
            scheduler.advance(by: interval)
        }
    }
}

@Suite("Search example")
struct SearchTests {
    @Test("typing is debounced: only the pause after the last keystroke asks the service")
    func debounced() {
        let harness = SearchHarness()
        harness.type("swift")
        #expect(harness.service.requestLog.isEmpty)
        harness.scheduler.advance(by: .milliseconds(200))
        #expect(harness.reactor.currentState.isLoading)
        harness.scheduler.advance(by: .milliseconds(200))
        #expect(harness.service.requestLog == ["swift#1"])
        #expect(harness.reactor.currentState.repositories.count == 10)
        #expect(harness.reactor.currentState.isLoading == false)
        #expect(harness.reactor.currentState.nextPage == 2)
    }

    @Test("a new query cancels the request still running for the previous one")
    func previousRequestCancelled() {
        let harness = SearchHarness()
        harness.reactor.action.onNext(.updateQuery("swift"))
        harness.scheduler.advance(by: .milliseconds(400))
        #expect(harness.service.requestLog == ["swift#1"])
        harness.reactor.action.onNext(.updateQuery("vapor"))
        #expect(harness.service.cancellationCount == 1)
        harness.scheduler.advance(by: .seconds(1))
        #expect(harness.reactor.currentState.query == "vapor")
        #expect(harness.reactor.currentState.repositories.allSatisfy { $0.lowercased().contains("vapor") })
    }

    @Test("scrolling to the end loads the next page, once, until there is none")
    func paging() {
        let harness = SearchHarness()
        harness.reactor.action.onNext(.updateQuery("swift"))
        harness.scheduler.advance(by: .seconds(1))
        harness.reactor.action.onNext(.loadNextPage)
        harness.reactor.action.onNext(.loadNextPage)
        #expect(harness.reactor.currentState.isLoadingNextPage)
        harness.scheduler.advance(by: .seconds(1))
        #expect(harness.service.requestLog == ["swift#1", "swift#2"])
        #expect(harness.reactor.currentState.repositories.count == 20)
        while harness.reactor.currentState.nextPage != nil {
            harness.reactor.action.onNext(.loadNextPage)
            harness.scheduler.advance(by: .seconds(1))
        }
        let total = FakeRepositoryService.catalogue.filter { $0.lowercased().contains("swift") }.count
        #expect(harness.reactor.currentState.repositories.count == total)
        let requests = harness.service.requestLog.count
        harness.reactor.action.onNext(.loadNextPage)
        #expect(harness.service.requestLog.count == requests, "no page after the last")
    }

    @Test("an empty result and an error are states the screen can show")
    func emptyAndError() {
        let harness = SearchHarness()
        let errors = harness.scheduler.record(harness.reactor.pulse(\.$errorMessage).compactMap { $0 })
        harness.reactor.action.onNext(.updateQuery("zzz"))
        harness.scheduler.advance(by: .seconds(1))
        #expect(harness.reactor.currentState.isEmpty)
        harness.reactor.action.onNext(.updateQuery("error"))
        harness.scheduler.advance(by: .seconds(1))
        #expect(errors.events == [.next(1500, "The search service is unavailable.")])
        harness.reactor.action.onNext(.updateQuery("error"))
        harness.scheduler.advance(by: .seconds(1))
        #expect(errors.elements.count == 2, "the same error again is shown again")
        harness.reactor.action.onNext(.updateQuery(""))
        #expect(harness.reactor.currentState.query == "")
        #expect(!harness.reactor.currentState.isEmpty)
    }
}
