#!/usr/bin/env python3
"""Runs RxSwift's, RxCocoa's and ReactorKit's own test suites against this checkout of ReactorFlow.

ReactorFlow promises their semantics; their tests are the sharpest check of that promise. This script takes their
sources from local checkouts (nothing of theirs is kept in this repository), builds a scratch package per suite
whose test files are theirs with the imports swapped and, for ReactorKit, the one line a reactor needs added
(`let reactorStorage = ReactorStorage()`), and runs `swift test` on it.

    Scripts/peer-tests.py --rxswift ~/src/RxSwift --reactorkit ~/src/ReactorKit [--work /tmp/peer-tests]

The checkouts are plain clones of github.com/ReactiveX/RxSwift and github.com/ReactorKit/ReactorKit (their `Tests`
folders are what is read). Each suite reports XCTest's summary; the script exits non-zero if any test fails. What is
left out, and why:

- Their tests that read RxSwift's internals (atomics, bags, resource counters) or UIKit, AppKit and the
  Objective-C runtime are not copied.
- RxBlocking's tests run too, against `ReactorFlowTesting`'s `toBlocking()`.
- A few of their test helpers are replaced by small stand-ins written here (`SHIMS`).
- `SKIPPED` lists the tests that depend on the platform rather than on ReactorFlow, each with its reason.
"""

import argparse
import glob
import os
import re
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
REPOSITORY = os.path.dirname(HERE)

IMPORTS = [
    (r"^@testable import (RxSwift|RxCocoa|RxRelay|ReactorKit)$", "@testable import ReactorFlow"),
    (r"^@preconcurrency import (RxSwift|RxCocoa|RxRelay|ReactorKit)$", "@preconcurrency import ReactorFlow"),
    (r"^import (RxSwift|RxCocoa|RxRelay|ReactorKit)$", "import ReactorFlow"),
    (r"^import RxTest$", "import ReactorFlowTesting"),
    (r"^import RxBlocking$", "import ReactorFlowTesting"),
]

# Tests whose outcome depends on the platform, not on ReactorFlow.
SKIPPED = {
    # It needs 32 dispatch worker threads blocked at once within 5 seconds, more than GCD starts on a small Linux
    # machine.
    "test2718ShareWithoutReplayConnectsOnceForConcurrentFirstSubscriptions": "needs 32 blocked dispatch threads",
}

SHIMS = r'''
import Foundation
import XCTest
import ReactorFlow

func XCTAssertErrorEqual(_ lhs: Swift.Error, _ rhs: Swift.Error, file: StaticString = #file, line: UInt = #line) {
    XCTAssertEqual(String(describing: lhs), String(describing: rhs), file: file, line: line)
}

func XCTAssertThrowsErrorEqual<T>(_ expression: @autoclosure () throws -> T, _ expected: Swift.Error,
                                  file: StaticString = #file, line: UInt = #line) {
    XCTAssertThrowsError(try expression(), file: file, line: line) { XCTAssertErrorEqual($0, expected, file: file, line: line) }
}

func XCTAssertEqual<T>(_ lhs: T, _ rhs: T, file: StaticString = #file, line: UInt = #line, _ comparison: (T, T) -> Bool) {
    XCTAssertTrue(comparison(lhs, rhs), "\(lhs) is not equal to \(rhs)", file: file, line: line)
}

func XCTAssertArraysEqual<T>(_ lhs: [T], _ rhs: [T], file: StaticString = #file, line: UInt = #line,
                             _ comparison: (T, T) -> Bool) {
    XCTAssertEqual(lhs.count, rhs.count, file: file, line: line)
    for (left, right) in zip(lhs, rhs) { XCTAssertTrue(comparison(left, right), "\(left) != \(right)", file: file, line: line) }
}

func doOnBackgroundQueue(_ action: @escaping () -> Void) { DispatchQueue.global().async(execute: action) }
func doOnMainQueue(_ action: @escaping () -> Void) { DispatchQueue.main.async(execute: action) }

typealias RecursiveLock = NSRecursiveLock

final class Synchronized<Value>: @unchecked Sendable { // `stored` is guarded by `lock`
    private let lock = NSRecursiveLock()
    private var stored: Value
    init(_ value: Value) { stored = value }
    var value: Value { lock.lock(); defer { lock.unlock() }; return stored }
    func mutate<R>(_ body: (inout Value) -> R) -> R { lock.lock(); defer { lock.unlock() }; return body(&stored) }
}

final class AtomicInt: @unchecked Sendable { // `value` is guarded by `lock`
    let lock = NSLock()
    var value: Int32
    init(_ value: Int32) { self.value = value }
}
func globalLoad(_ atomic: AtomicInt) -> Int32 { atomic.lock.withLock { atomic.value } }
@discardableResult func sub(_ atomic: AtomicInt, _ amount: Int32) -> Int32 {
    atomic.lock.withLock { defer { atomic.value -= amount }; return atomic.value }
}
@discardableResult func increment(_ atomic: AtomicInt) -> Int32 {
    atomic.lock.withLock { defer { atomic.value += 1 }; return atomic.value }
}

extension DispatchQueue { static var isMain: Bool { MainScheduler.isOnMainQueue } }

/// Runs what earlier tests left queued on the main queue, as the run loop between tests does on Apple platforms:
/// `MainScheduler.instance` runs an action inline only when none of its actions is pending.
func drainMainQueueBeforeTest() {
    guard Thread.isMainThread else { return }
    RunLoop.current.run(until: Date().addingTimeInterval(0.01))
}
extension XCTestCase { func wait(for expectations: [XCTestExpectation]) { wait(for: expectations, timeout: 10) } }
'''

RXSWIFT_TESTS = ["Observable+*.swift", "CompletableTest.swift", "Completable+AndThen.swift", "MaybeTest.swift",
                 "SingleTest.swift", "CurrentThreadSchedulerTest.swift", "Event+Test.swift", "Infallible+Tests.swift",
                 "Infallible+CombineLatestTests+arity.swift", "PrimitiveSequenceTest+zip+arity.swift",
                 "PublishSubjectTest.swift", "BehaviorSubjectTest.swift", "ReplaySubjectTest.swift",
                 "AsyncSubjectTests.swift", "HistoricalSchedulerTest.swift", "VirtualSchedulerTest.swift",
                 "SchedulerTests.swift", "DisposeBagTest.swift", "ObserverTests.swift",
                 "ObservableType+SubscriptionTests.swift", "Reactive+Tests.swift", "Binder+Tests.swift", "Anomalies.swift",
                 "DisposableTest.swift", "MainSchedulerTests.swift", "SharingSchedulerTests.swift",
                 "*Concurrency*.swift"]
RXSWIFT_SUPPORT = ["RxTest.swift", "TestErrors.swift", "Recorded+Timeless.swift",
                   "RxSwiftTests/TestImplementations/*.swift", "RxSwiftTests/TestImplementations/Mocks/*.swift"]
RXCOCOA_TESTS = ["RxRelayTests/*.swift", "RxCocoaTests/ControlEventTests.swift",
                 "RxCocoaTests/ControlPropertyTests.swift", "RxCocoaTests/Driver+Test.swift",
                 "RxCocoaTests/Infallible+BindTests.swift", "RxCocoaTests/NotificationCenterTests.swift",
                 "RxCocoaTests/Observable+BindTests.swift", "RxCocoaTests/ObservableConvertibleType+SharedSequence.swift",
                 "RxCocoaTests/SharedSequence+Extensions.swift", "RxCocoaTests/SharedSequence+OperatorTest.swift",
                 "RxCocoaTests/SharedSequence+Test.swift", "RxCocoaTests/Signal+Test.swift",
                 "RxCocoaTests/SharedSequence+ConcurrencyTests.swift"]


def package_manifest(name):
    return f'''// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "{name}",
    dependencies: [.package(path: "{REPOSITORY}")],
    targets: [
        .target(name: "Empty"),
        .testTarget(
            name: "{name}Tests",
            dependencies: [.product(name: "ReactorFlow", package: "{os.path.basename(REPOSITORY)}"),
                           .product(name: "ReactorFlowTesting", package: "{os.path.basename(REPOSITORY)}")],
            swiftSettings: [.swiftLanguageMode(.v5)]
        ),
    ]
)
'''


def swap_imports(text):
    for pattern, replacement in IMPORTS:
        text = re.sub(pattern, replacement, text, flags=re.M)
    # RxSwift's test base class: each test starts with the main queue drained (see `drainMainQueueBeforeTest`).
    return text.replace("        super.setUp()\n        setUpActions()", "        super.setUp()\n        drainMainQueueBeforeTest()\n        setUpActions()")


def add_reactor_storage(text):
    """Adds the line every ReactorFlow reactor needs after each class that adopts `Reactor`."""
    declaration = r"^(\s*)((?:final |private |fileprivate )*class \w+(?:<[^>]*>)?\s*:\s*[^{]*\bReactor\b[^{]*\{)\n"
    return re.sub(declaration, lambda m: f"{m.group(1)}{m.group(2)}\n{m.group(1)}  let reactorStorage = ReactorStorage()\n",
                  text, flags=re.M)


def make_package(work, name, files, reactors=False, shims=True):
    root = os.path.join(work, name)
    shutil.rmtree(root, ignore_errors=True)
    tests = os.path.join(root, "Tests", f"{name}Tests")
    os.makedirs(tests)
    os.makedirs(os.path.join(root, "Sources", "Empty"))
    with open(os.path.join(root, "Sources", "Empty", "Empty.swift"), "w") as empty:
        empty.write("public let empty = 0\n")
    with open(os.path.join(root, "Package.swift"), "w") as manifest:
        manifest.write(package_manifest(name))
    for path in files:
        with open(path, encoding="utf-8") as source:
            text = swap_imports(source.read())
        if reactors:
            text = add_reactor_storage(text)
        with open(os.path.join(tests, os.path.basename(path)), "w", encoding="utf-8") as target:
            target.write(text)
    if shims:
        with open(os.path.join(tests, "PeerTestShims.swift"), "w") as target:
            target.write(SHIMS)
    return root


def expand(base, patterns):
    found = []
    for pattern in patterns:
        matches = sorted(glob.glob(os.path.join(base, pattern)))
        if not matches:
            sys.exit(f"error: {pattern} not found under {base}")
        # SubjectConcurrencyTest reads RxSwift's internal RxMutableBox.
        found += [path for path in matches if os.path.basename(path) != "SubjectConcurrencyTest.swift"]
    return found


def run(root, name):
    print(f"\n=== {name}", flush=True)
    command = ["swift", "test"]
    for test in SKIPPED:
        command += ["--skip", test]
    result = subprocess.run(command, cwd=root, capture_output=True, text=True)
    output = result.stdout + result.stderr
    failures = [line for line in output.splitlines() if ": error: " in line and "XCT" in line or " failed (" in line]
    print("\n".join(failures[:40]))
    summary = [line for line in output.splitlines() if line.strip().startswith("Executed")]
    print(summary[-1].strip() if summary else output[-3000:])
    return result.returncode == 0


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rxswift", help="a checkout of ReactiveX/RxSwift")
    parser.add_argument("--reactorkit", help="a checkout of ReactorKit/ReactorKit")
    parser.add_argument("--work", default="/tmp/reactorflow-peer-tests", help="where the scratch packages go")
    arguments = parser.parse_args()
    if not arguments.rxswift and not arguments.reactorkit:
        parser.error("give --rxswift, --reactorkit or both")
    os.makedirs(arguments.work, exist_ok=True)
    passed = True
    if arguments.rxswift:
        tests = os.path.join(os.path.abspath(arguments.rxswift), "Tests")
        support = expand(tests, RXSWIFT_SUPPORT)
        rxswift = expand(os.path.join(tests, "RxSwiftTests"), RXSWIFT_TESTS) + expand(tests, ["RxBlockingTests/*.swift"])
        passed &= run(make_package(arguments.work, "RxSwiftSuite", support + rxswift), "RxSwift's tests")
        rxcocoa = expand(tests, RXCOCOA_TESTS)
        passed &= run(make_package(arguments.work, "RxCocoaSuite", support + rxcocoa), "RxRelay's and RxCocoa's tests")
    if arguments.reactorkit:
        tests = expand(os.path.abspath(arguments.reactorkit), ["Tests/ReactorKitTests/*.swift"])
        passed &= run(make_package(arguments.work, "ReactorKitSuite", tests, reactors=True, shims=False),
                      "ReactorKit's tests")
    sys.exit(0 if passed else 1)


if __name__ == "__main__":
    main()
