// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "ReactorFlow",
    products: [
        .library(name: "ReactorFlow", targets: ["ReactorFlow"]),
        .library(name: "ReactorFlowTesting", targets: ["ReactorFlowTesting"]),
    ],
    targets: [
        .target(
            name: "ReactorFlow",
            exclude: [
                "Core/Operators/FlatMapLatest/README.md",
                "Core/Operators/Debounce/README.md",
                "Core/Operators/Throttle/README.md",
                "Core/Operators/Share/README.md",
                "Core/Operators/CombineLatest/README.md",
            ]
        ),
        .target(name: "ReactorFlowTesting", dependencies: ["ReactorFlow"]),
        .testTarget(name: "ReactorFlowTests", dependencies: ["ReactorFlow", "ReactorFlowTesting"]),
    ],
    swiftLanguageModes: [.v6]
)
