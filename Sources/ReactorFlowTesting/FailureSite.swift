import Testing
#if canImport(XCTest)
import XCTest
#endif

/// Where a testing-kit call was made, and how a failure found there is reported: as an issue of the Swift Testing
/// test that is running, or, from an XCTest suite, as an XCTest failure at that line.
///
/// Public calls take the four call-site literals (`#fileID`, `#filePath`, `#line`, `#column`) rather than Swift
/// Testing's `#_sourceLocation`: that macro would have to be imported where the call is written, so an XCTest file,
/// which imports only XCTest, could not call `scheduler.start()`.
struct FailureSite {
    let fileID: String
    let filePath: StaticString
    let line: UInt
    let column: UInt

    /// Records `message` as a failure of the running test.
    func record(_ message: String) {
        #if canImport(XCTest)
        if Test.current == nil {
            XCTFail(message, file: filePath, line: line)
            return
        }
        #endif
        let location = SourceLocation(fileID: fileID, filePath: "\(filePath)", line: Int(line), column: Int(column))
        Issue.record(Comment(rawValue: message), sourceLocation: location)
    }
}
