// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "ReactorFlow",
    // Swift concurrency's run-time library (`Task`, `AsyncStream`) sets the floor; macOS 13 for `Duration`, which the
    // examples and tests use. Two APIs need more and are marked so: `ObservedReactor` (Observation: iOS 17, macOS 14)
    // and `ReactorFlowTesting`'s `first(where:timeout:)` (`Duration`: iOS 16). `.ci/apple-availability` checks it.
    platforms: [.macOS(.v13), .iOS(.v13), .tvOS(.v13), .watchOS(.v6), .visionOS(.v1)],
    products: [
        .library(name: "ReactorFlow", targets: ["ReactorFlow"]),
        .library(name: "ReactorFlowTesting", targets: ["ReactorFlowTesting"]),
        .executable(name: "LoginExample", targets: ["LoginExample"]),
        .executable(name: "CounterExample", targets: ["CounterExample"]),
        .executable(name: "SearchExample", targets: ["SearchExample"]),
    ],
    targets: [
        .target(name: "ReactorFlowAtomics"),
        .target(
            name: "ReactorFlow",
            dependencies: ["ReactorFlowAtomics"],
            exclude: [
                "Core/Operators/FlatMapLatest/README.md",
                "Core/Operators/Debounce/README.md",
                "Core/Operators/Throttle/README.md",
                "Core/Operators/Share/README.md",
                "Core/Operators/CombineLatest/README.md",
                "Core/Subjects/Core/README.md",
            ]
        ),
        .target(name: "ReactorFlowTesting", dependencies: ["ReactorFlow"], exclude: ["Blocking/README.md"]),
        .target(name: "LoginFeature", dependencies: ["ReactorFlow"], path: "Examples/Login/LoginFeature"),
        .executableTarget(name: "LoginExample", dependencies: ["LoginFeature", "ReactorFlow"], path: "Examples/Login/LoginExample"),
        .target(name: "CounterFeature", dependencies: ["ReactorFlow"], path: "Examples/Counter/CounterFeature"),
        .executableTarget(name: "CounterExample", dependencies: ["CounterFeature", "ReactorFlow"], path: "Examples/Counter/CounterExample"),
        .target(name: "SearchFeature", dependencies: ["ReactorFlow"], path: "Examples/Search/SearchFeature"),
        .executableTarget(name: "SearchExample", dependencies: ["SearchFeature", "ReactorFlow"], path: "Examples/Search/SearchExample"),
        .target(name: "HeapStatistics", path: "Benchmarks/HeapStatistics"),
        .target(name: "FloorAtomics", path: "Benchmarks/FloorAtomics"),
        .executableTarget(name: "ReactorFlowBenchmarks", dependencies: ["ReactorFlow", "ReactorFlowTesting", "HeapStatistics", "FloorAtomics"], path: "Benchmarks/ReactorFlowBenchmarks"),
        .testTarget(name: "ReactorFlowTests", dependencies: ["ReactorFlow", "ReactorFlowTesting"]),
        .testTarget(name: "ReactorFlowTestingTests", dependencies: ["ReactorFlow", "ReactorFlowTesting"]),
        .testTarget(name: "ExampleTests", dependencies: ["CounterFeature", "SearchFeature", "ReactorFlow", "ReactorFlowTesting"]),
        .testTarget(name: "LoginFeatureTests", dependencies: ["LoginFeature", "ReactorFlow", "ReactorFlowTesting"]),
    ],
    swiftLanguageModes: [.v6]
)
