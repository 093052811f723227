import Foundation
import ReactorFlow
import Testing

extension Reactor {
    /// Turns on the stub with `state` as what the view sees, for view tests: one line before binding.
    ///
    /// ```swift
    /// let reactor = LoginReactor(…).stubbed(with: LoginReactor.State())
    /// view.reactor = reactor
    /// view.tapLogin()
    /// #expect(reactor.sentActions == [.tapLogin(.kakao)])
    /// ```
    @discardableResult
    public func stubbed(with state: State) -> Self {
        isStubEnabled = true
        stub.state.value = state
        return self
    }

    /// The actions a view sent to the stubbed reactor, in order.
    public var sentActions: [Action] { stub.actions }
}

/// The wait for `first(where:)` ran out.
public struct TimeoutError: Error, CustomStringConvertible {
    /// Says what was awaited and for how long.
    public let description: String
}

extension ObservableType where Element: Sendable {
    /// Waits, on real time, for the first element matching `predicate`. If `timeout` passes first (or the stream
    /// ends), records a test issue saying so and returns `nil`.
    ///
    /// ```swift
    /// let state = await reactor.state.first(where: { !$0.isLoading }, timeout: .seconds(2))
    /// ```
    ///
    /// `Duration` needs macOS 13, iOS 16, tvOS 16 or watchOS 9 on Apple's systems.
    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
    public func first(
        where predicate: @escaping @Sendable (Element) -> Bool,
        timeout: Duration = .seconds(1),
        fileID: String = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
    ) async -> Element? {
        let stream = filter(predicate).take(1).values
        let result = await withTaskGroup(of: Result<Element?, TimeoutError>.self) { group in
            group.addTask {
                do {
                    for try await element in stream { return .success(element) }
                    return .failure(TimeoutError(description: "the stream ended before an element matched"))
                } catch {
                    return .failure(TimeoutError(description: "the stream failed before an element matched: \(error)"))
                }
            }
            group.addTask {
                try? await Task.sleep(for: timeout)
                return .failure(TimeoutError(description: "no element matched within \(timeout)"))
            }
            let first = await group.next()!  // two tasks were added, so there is a first result
            group.cancelAll()
            return first
        }
        switch result {
        case .success(let element):
            return element
        case .failure(let error):
            FailureSite(fileID: fileID, filePath: filePath, line: line, column: column).record("first(where:): \(error.description)")
            return nil
        }
    }
}
