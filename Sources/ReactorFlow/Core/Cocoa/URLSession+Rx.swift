import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Why a `URLSession.rx` request failed, as RxCocoa names it.
public enum RxCocoaURLError: Error {
    /// The session returned neither a response nor an error.
    case unknown
    /// The response was not an HTTP response.
    case nonHTTPResponse(response: URLResponse)
    /// The status code was outside 200..<300 (`data(request:)` and `json(request:)`).
    case httpRequestFailed(response: HTTPURLResponse, data: Data?)
    /// The body was not valid JSON (`json(request:)`).
    case deserializationError(error: Error)
}

extension RxCocoaURLError: CustomDebugStringConvertible {
    /// What went wrong, in a sentence.
    public var debugDescription: String {
        switch self {
        case .unknown: "Unknown error has occurred."
        case .nonHTTPResponse(let response): "Response is not NSHTTPURLResponse `\(response)`."
        case .httpRequestFailed(let response, _): "HTTP request failed with `\(response.statusCode)`."
        case .deserializationError(let error): "Error during deserialization of the response: \(error)"
        }
    }
}

extension Reactive where Base: URLSession {
    /// The response and body of `request`, then completion; a transport error, or a response that is not HTTP,
    /// fails the stream. The request starts on subscription, and disposing cancels it.
    ///
    /// ```swift
    /// URLSession.shared.rx.response(request: URLRequest(url: profileURL))
    ///     .map { response, data in response.statusCode == 304 ? nil : data }
    /// ```
    public func response(request: URLRequest) -> Observable<(response: HTTPURLResponse, data: Data)> {
        let session = base
        return Observable.make { sink in
            let startedAt = URLSession.rx.shouldLogRequest(request) ? Date() : nil
            let task = session.dataTask(with: request) { data, response, error in
                if let startedAt {
                    print(curlCommand(for: request))
                    print(outcome(response, error, after: Date().timeIntervalSince(startedAt)))
                }
                guard let response, let data else { return sink.onError(error ?? RxCocoaURLError.unknown) }
                guard let httpResponse = response as? HTTPURLResponse else {
                    return sink.onError(RxCocoaURLError.nonHTTPResponse(response: response))
                }
                sink.onNext((httpResponse, data))
                sink.onCompleted()
            }
            task.resume()
            return Disposables.create { task.cancel() }
        }
    }

    /// The body of `request`; a status code outside 200..<300 fails the stream with
    /// `RxCocoaURLError.httpRequestFailed`.
    ///
    /// ```swift
    /// URLSession.shared.rx.data(request: request).decode(type: [Repository].self, decoder: JSONDecoder())
    /// ```
    public func data(request: URLRequest) -> Observable<Data> {
        response(request: request).map { response, data in
            guard 200..<300 ~= response.statusCode else {
                throw RxCocoaURLError.httpRequestFailed(response: response, data: data)
            }
            return data
        }
    }

    /// The body of `request` read by `JSONSerialization`; a body that is not JSON fails the stream with
    /// `RxCocoaURLError.deserializationError`.
    public func json(request: URLRequest, options: JSONSerialization.ReadingOptions = []) -> Observable<Any> {
        data(request: request).map { data in
            do {
                return try JSONSerialization.jsonObject(with: data, options: options)
            } catch {
                throw RxCocoaURLError.deserializationError(error: error)
            }
        }
    }

    /// `json(request:)` of a GET request for `url`.
    public func json(url: URL) -> Observable<Any> {
        json(request: URLRequest(url: url))
    }
}

extension Reactive where Base == URLSession {
    /// Whether `response(request:)` prints a request as a `curl` command, and its outcome, when it finishes. By
    /// default, yes in debug builds of ReactorFlow and no in release builds, as in RxCocoa.
    public static var shouldLogRequest: @Sendable (URLRequest) -> Bool {
        get { requestLogging.withLock { $0 } }
        set { requestLogging.withLock { $0 = newValue } }
    }
}

private let requestLogging = LockedValue<@Sendable (URLRequest) -> Bool>({ _ in
    #if DEBUG
    true
    #else
    false
    #endif
})

/// `request` as a `curl` command line.
private func curlCommand(for request: URLRequest) -> String {
    func quoted(_ text: String) -> String { "\"" + text.replacingOccurrences(of: "\"", with: "\\\"") + "\"" }
    var command = "curl -X \(request.httpMethod ?? "GET") "
    if let body = request.httpBody.flatMap({ String(data: $0, encoding: .utf8) }) {
        command += "-d \(quoted(body)) "
    }
    for (field, value) in request.allHTTPHeaderFields ?? [:] {
        command += "\n    -H \(quoted("\(field): \(value)")) "
    }
    return command + "\n\(quoted(request.url?.absoluteString ?? "<unknown url>")) -i -v"
}

/// How a request ended, and how long it took.
private func outcome(_ response: URLResponse?, _ error: Error?, after interval: TimeInterval) -> String {
    let milliseconds = Int(interval * 1000)
    if let response = response as? HTTPURLResponse {
        let verdict = 200..<300 ~= response.statusCode ? "Success" : "Failure"
        return "\(verdict) (\(milliseconds)ms): Status \(response.statusCode)"
    }
    if let error = error as NSError? {
        if error.domain == NSURLErrorDomain, error.code == NSURLErrorCancelled { return "Canceled (\(milliseconds)ms)" }
        return "Failure (\(milliseconds)ms): NSError > \(error)"
    }
    return "<Unhandled response from server>"
}
