import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import ReactorFlow
import Testing

/// `URLSession.rx`, against a session whose requests a `URLProtocol` answers in process: no network.
@Suite("A12 URLSession.rx", .serialized)
struct URLSessionTests {
    private let session: URLSession = {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.protocolClasses = [CannedResponses.self]
        return URLSession(configuration: configuration)
    }()

    private func request(_ path: String) -> URLRequest {
        URLRequest(url: URL(string: "https://canned.invalid/\(path)")!)
    }

    @Test("A12 response, data and json deliver the answer and complete; the request starts on subscription and is logged if asked")
    func successfulRequests() async throws {
        let logged = LockedList<String>()
        URLSession.rx.shouldLogRequest = { request in
            logged.append(request.url?.path ?? "")
            return false
        }
        defer { URLSession.rx.shouldLogRequest = { _ in false } }

        let pairs = try await session.rx.response(request: request("ok")).values.collect()
        #expect(pairs.map(\.response.statusCode) == [200])
        #expect(pairs.map { String(decoding: $0.data, as: UTF8.self) } == [#"{"count":3}"#])
        let missing = try await session.rx.response(request: request("missing")).values.collect()
        #expect(missing.map(\.response.statusCode) == [404])

        let data = try await session.rx.data(request: request("ok")).values.collect()
        #expect(data == [Data(#"{"count":3}"#.utf8)])
        let counts = try await session.rx.json(url: URL(string: "https://canned.invalid/ok")!)
            .map { ($0 as? [String: Any])?["count"] as? Int }
            .values.collect()
        #expect(counts == [3])
        #expect(logged.items == ["/ok", "/missing", "/ok", "/ok"])
    }

    @Test("A12 a failed status, a body that is not JSON, a transport error and a non-HTTP response fail the stream with RxCocoa's errors")
    func failures() async {
        URLSession.rx.shouldLogRequest = { _ in false }
        await expectFailure(session.rx.data(request: request("missing"))) { error in
            guard case .httpRequestFailed(let response, let data)? = error as? RxCocoaURLError else { return false }
            return response.statusCode == 404 && data == Data("nope".utf8)
        }
        await expectFailure(session.rx.json(request: request("text"))) { error in
            guard case .deserializationError? = error as? RxCocoaURLError else { return false }
            return true
        }
        await expectFailure(session.rx.response(request: request("offline"))) { error in
            (error as? URLError)?.code == .notConnectedToInternet
        }
        await expectFailure(session.rx.response(request: request("plain"))) { error in
            guard case .nonHTTPResponse? = error as? RxCocoaURLError else { return false }
            return true
        }
        #expect(RxCocoaURLError.unknown.debugDescription == "Unknown error has occurred.")
    }

    @Test("A12 disposing a request in flight cancels its task; nothing is delivered")
    func disposingCancels() async {
        URLSession.rx.shouldLogRequest = { _ in false }
        let (log, subscription) = session.rx.response(request: request("hang")).map(\.response.statusCode).log()
        await CannedResponses.hangStarted.wait()
        subscription.dispose()
        await CannedResponses.hangStopped.wait()
        #expect(log.events.isEmpty)
    }

    private func expectFailure<Element>(_ stream: Observable<Element>, sourceLocation: SourceLocation = #_sourceLocation,
                                        _ matches: (Error) -> Bool) async {
        do {
            _ = try await stream.map { _ in true }.values.collect()
            Issue.record("the stream did not fail", sourceLocation: sourceLocation)
        } catch {
            #expect(matches(error), "unexpected error \(error)", sourceLocation: sourceLocation)
        }
    }
}

/// Answers `https://canned.invalid/…` requests: `ok` (200, JSON), `missing` (404), `text` (200, not JSON), `plain` (a
/// response that is not HTTP), `hang` (no answer until stopped), anything else (a transport error).
private final class CannedResponses: URLProtocol {
    static let hangStarted = AsyncSignal()
    static let hangStopped = AsyncSignal()

    override class func canInit(with request: URLRequest) -> Bool { request.url?.host == "canned.invalid" }
    override class func canonicalRequest(for request: URLRequest) -> URLRequest { request }

    override func startLoading() {
        guard let url = request.url, let client else { return }
        func answer(_ status: Int, _ body: String) {
            let response = HTTPURLResponse(url: url, statusCode: status, httpVersion: "HTTP/1.1", headerFields: nil)!
            client.urlProtocol(self, didReceive: response, cacheStoragePolicy: .notAllowed)
            client.urlProtocol(self, didLoad: Data(body.utf8))
            client.urlProtocolDidFinishLoading(self)
        }
        switch url.path {
        case "/ok": answer(200, #"{"count":3}"#)
        case "/missing": answer(404, "nope")
        case "/text": answer(200, "not json")
        case "/hang": Self.fire(Self.hangStarted)
        case "/plain":
            let response = URLResponse(url: url, mimeType: "text/plain", expectedContentLength: 2, textEncodingName: nil)
            client.urlProtocol(self, didReceive: response, cacheStoragePolicy: .notAllowed)
            client.urlProtocol(self, didLoad: Data("hi".utf8))
            client.urlProtocolDidFinishLoading(self)
        default: client.urlProtocol(self, didFailWithError: URLError(.notConnectedToInternet))
        }
    }

    override func stopLoading() {
        if request.url?.path == "/hang" { Self.fire(Self.hangStopped) }
    }

    private static func fire(_ signal: AsyncSignal) {
        Task { await signal.fire() }
    }
}
