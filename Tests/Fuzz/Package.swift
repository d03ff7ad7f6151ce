// swift-tools-version: 6.0
import PackageDescription

/// libFuzzer targets for Kindred's parsers (issue 18), a package of its own so that the sanitizer flags
/// (`Tests/Fuzz/build`) stay out of the main build. Each target's `main.swift` hands its fuzz function to
/// libFuzzer's driver (`runLibFuzzer`).
func fuzzTarget(_ name: String) -> Target {
    .executableTarget(
        name: name,
        dependencies: [
            "FuzzFixtures", .product(name: "KindredFuzzable", package: "Kindred"),
            .product(name: "Logging", package: "swift-log"),
        ],
        path: "Sources/\(name)"
    )
}

let package = Package(
    name: "KindredFuzz",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "Kindred", path: "../.."),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
    ],
    targets: [
        .systemLibrary(name: "CLibFuzzer", path: "Sources/CLibFuzzer"),
        .target(
            name: "FuzzFixtures",
            dependencies: ["CLibFuzzer", .product(name: "KindredFuzzable", package: "Kindred")],
            path: "Sources/FuzzFixtures"
        ),
        fuzzTarget("FuzzDeframer"),
        fuzzTarget("FuzzConnection"),
        fuzzTarget("FuzzMessages"),
        fuzzTarget("FuzzToken"),
        fuzzTarget("FuzzPageToken"),
        // Writes the seed corpus (real framed messages, tokens, page tokens) with Kindred's own code.
        .executableTarget(
            name: "FuzzSeeds",
            dependencies: ["FuzzFixtures", .product(name: "KindredFuzzable", package: "Kindred")],
            path: "Sources/FuzzSeeds"
        ),
    ],
    swiftLanguageModes: [.v6]
)
