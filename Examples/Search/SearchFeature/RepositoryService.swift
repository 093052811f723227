import Foundation
import ReactorFlow

/// One page of search results.
public struct SearchPage: Equatable, Sendable {
    public var repositories: [String]
    public var nextPage: Int?

    public init(repositories: [String], nextPage: Int?) {
        self.repositories = repositories
        self.nextPage = nextPage
    }
}

/// Why a search failed.
public struct SearchError: Error, Equatable, Sendable {
    public var message: String
    public init(_ message: String) { self.message = message }
}

/// Searches repositories, a page at a time. Cold: subscribing starts the request, disposing cancels it.
public protocol RepositoryService: AnyObject {
    func search(query: String, page: Int) -> Single<SearchPage>
}

/// A repository service over a fixed catalogue, with latency on a scheduler. The query "error" fails.
public final class FakeRepositoryService: RepositoryService, @unchecked Sendable { // counters are guarded by `lock`
    private let scheduler: SchedulerType
    private let latency: RxTimeInterval
    private let pageSize: Int
    private let lock = NSLock()
    private var requests: [String] = []
    private var cancelled = 0

    public static let catalogue: [String] = {
        let owners = ["apple", "swiftlang", "ReactorKit", "ReactiveX", "pointfreeco", "vapor"]
        let names = ["swift", "swift-nio", "swift-syntax", "swift-collections", "swift-testing", "swift-format",
                     "RxSwift", "ReactorKit", "swift-composable-architecture", "swift-async-algorithms",
                     "swift-argument-parser", "swift-log", "swift-metrics", "swift-crypto", "vapor", "fluent"]
        return owners.flatMap { owner in names.map { "\(owner)/\($0)" } }
    }()

    public init(scheduler: SchedulerType, latency: RxTimeInterval = .milliseconds(200), pageSize: Int = 10) {
        self.scheduler = scheduler
        self.latency = latency
        self.pageSize = pageSize
    }

    /// Every request made, as "query#page", in order.
    public var requestLog: [String] { lock.withLock { requests } }
    /// Requests disposed before they answered.
    public var cancellationCount: Int { lock.withLock { cancelled } }

    public func search(query: String, page: Int) -> Single<SearchPage> {
        Single.create { [self] observer in
            lock.withLock { requests.append("\(query)#\(page)") }
            let answered = BooleanDisposable()
            let timer = scheduler.scheduleRelative(latency) { [self] in
                answered.dispose()
                if query == "error" {
                    observer(.failure(SearchError("The search service is unavailable.")))
                    return
                }
                let matches = Self.catalogue.filter { $0.lowercased().contains(query.lowercased()) }
                let start = (page - 1) * pageSize
                let slice = Array(matches.dropFirst(start).prefix(pageSize))
                let next = start + pageSize < matches.count ? page + 1 : nil
                observer(.success(SearchPage(repositories: slice, nextPage: next)))
            }
            return Disposables.create { [self] in
                timer.dispose()
                if !answered.isDisposed { lock.withLock { cancelled += 1 } }
            }
        }
    }
}
