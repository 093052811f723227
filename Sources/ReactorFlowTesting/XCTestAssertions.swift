#if canImport(XCTest)
import ReactorFlow
import XCTest

// RxTest's assertions for XCTest suites, with the same names and arguments, so that tests written against RxTest
// compile unchanged. Each fails with both sides printed, one event per line, and the first index where they differ.

/// Asserts that two sequences of events are equal.
public func XCTAssertEqual<Element: Equatable>(_ lhs: [Event<Element>], _ rhs: [Event<Element>],
                                              file: StaticString = #filePath, line: UInt = #line) {
    assertEqual(lhs, rhs, file: file, line: line)
}

/// Asserts that two sequences of recorded events are equal: the same events at the same virtual times.
public func XCTAssertEqual<Element: Equatable>(_ lhs: [Recorded<Event<Element>>], _ rhs: [Recorded<Event<Element>>],
                                              file: StaticString = #filePath, line: UInt = #line) {
    assertEqual(lhs, rhs, file: file, line: line)
}

/// Asserts that two sequences of recorded events of optional elements are equal.
public func XCTAssertEqual<Element: Equatable>(_ lhs: [Recorded<Event<Element?>>], _ rhs: [Recorded<Event<Element?>>],
                                              file: StaticString = #filePath, line: UInt = #line) {
    assertEqual(lhs, rhs, file: file, line: line)
}

/// Asserts that two sequences of `Single` results are equal (errors compare as `Event`'s do).
public func XCTAssertEqual<Element: Equatable>(_ lhs: [SingleEvent<Element>], _ rhs: [SingleEvent<Element>],
                                              file: StaticString = #filePath, line: UInt = #line) {
    assertEqual(lhs.map { SingleEventValue($0) }, rhs.map { SingleEventValue($0) }, file: file, line: line)
}

/// Asserts that two sequences of `Maybe` events are equal.
public func XCTAssertEqual<Element: Equatable>(_ lhs: [MaybeEvent<Element>], _ rhs: [MaybeEvent<Element>],
                                              file: StaticString = #filePath, line: UInt = #line) {
    assertEqual(lhs.map { MaybeEventValue($0) }, rhs.map { MaybeEventValue($0) }, file: file, line: line)
}

/// Asserts that two sequences of `Completable` events are equal.
public func XCTAssertEqual(_ lhs: [CompletableEvent], _ rhs: [CompletableEvent],
                           file: StaticString = #filePath, line: UInt = #line) {
    assertEqual(lhs.map { CompletableEventValue($0) }, rhs.map { CompletableEventValue($0) }, file: file, line: line)
}

/// Asserts that `stream` holds exactly `elements` as its `next` events, in order, whatever their times and however
/// it ended.
public func XCTAssertRecordedElements<Element: Equatable>(_ stream: [Recorded<Event<Element>>], _ elements: [Element],
                                                         file: StaticString = #filePath, line: UInt = #line) {
    assertEqual(stream.compactMap(\.value.element), elements, file: file, line: line)
}

private func assertEqual<Value: Equatable>(_ lhs: [Value], _ rhs: [Value], file: StaticString, line: UInt) {
    if let difference = eventsDifference(lhs, rhs) { XCTFail(difference, file: file, line: line) }
}
#endif

/// What the XCTest assertions report when `lhs` (actual) and `rhs` (expected) differ: both, one value per line, and
/// the first index where they differ; nil when they are equal.
func eventsDifference<Value: Equatable>(_ lhs: [Value], _ rhs: [Value]) -> String? {
    guard lhs != rhs else { return nil }
    let firstDifference = lhs.indices.first { $0 >= rhs.count || lhs[$0] != rhs[$0] } ?? lhs.count
    func lines(_ values: [Value]) -> String {
        values.isEmpty ? "  (none)" : values.enumerated().map { "  [\($0)] \(String(reflecting: $1))" }.joined(separator: "\n")
    }
    return "the events differ from index \(firstDifference) on:\nactual:\n\(lines(lhs))\nexpected:\n\(lines(rhs))"
}

#if canImport(XCTest)

/// A `Single` result compared as an event: errors compare as `Event`'s do.
private struct SingleEventValue<Element: Equatable>: Equatable, CustomDebugStringConvertible {
    let event: Event<Element>
    init(_ result: SingleEvent<Element>) {
        switch result {
        case .success(let element): event = .next(element)
        case .failure(let error): event = .error(error)
        }
    }
    var debugDescription: String { event.element.map { "success(\($0))" } ?? event.debugDescription }
}

/// A `Maybe` event compared as an event.
private struct MaybeEventValue<Element: Equatable>: Equatable, CustomDebugStringConvertible {
    let event: Event<Element>
    init(_ maybe: MaybeEvent<Element>) {
        switch maybe {
        case .success(let element): event = .next(element)
        case .error(let error): event = .error(error)
        case .completed: event = .completed
        }
    }
    var debugDescription: String { event.element.map { "success(\($0))" } ?? event.debugDescription }
}

/// A `Completable` event compared as an event.
private struct CompletableEventValue: Equatable, CustomDebugStringConvertible {
    let event: Event<Never>
    init(_ completable: CompletableEvent) {
        switch completable {
        case .error(let error): event = .error(error)
        case .completed: event = .completed
        }
    }
    var debugDescription: String { event.debugDescription }
}
#endif
