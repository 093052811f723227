import Foundation

extension ObservableType {
    /// Prints every event, subscription and disposal with a timestamp and `identifier`.
    ///
    /// ```swift
    /// reactor.state.debug("state") // 12:00:00.123: state -> Event next(State(...))
    /// ```
    public func debug(_ identifier: String? = nil, trimOutput: Bool = false, file: String = #fileID, line: UInt = #line) -> Observable<Element> {
        let name = identifier ?? "\(file):\(line)"
        func log(_ text: String) {
            var output = text
            if trimOutput && output.count > 40 { output = String(output.prefix(40)) + "..." }
            let formatter = DateFormatter()
            formatter.dateFormat = "HH:mm:ss.SSS"
            print("\(formatter.string(from: Date())): \(name) -> \(output)")
        }
        return self.do(
            onNext: { log("Event next(\($0))") },
            onError: { log("Event error(\($0))") },
            onCompleted: { log("Event completed") },
            onSubscribe: { log("subscribed") },
            onDispose: { log("isDisposed") }
        )
    }
}
