// swift-tools-version: 6.0
import PackageDescription

/// A service: its library (all logic, `Services/<Name>/<Name>Service`) and its thin executable.
func service(_ name: String) -> [Target] {
    [
        .target(
            name: "\(name)Service",
            dependencies: [
                "KindredRuntime", "KindredHandlers", "KindredAPI", "KindredMessages", "KindredRPC",
                "KindredPostgres",
                "KindredAuth", "KindredMail", "KindredEvents",
                "KindredMetrics",
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Services/\(name)/\(name)Service"
        ),
        .executableTarget(
            name: "kindred-\(name.lowercased())",
            dependencies: [.target(name: "\(name)Service"), "KindredRuntime"],
            path: "Services/\(name)/Kindred\(name)"
        ),
    ]
}

/// A system library reached through pkg-config, with the Debian package that provides it.
func systemLibrary(_ name: String, pkgConfig: String?, apt: String) -> Target {
    .systemLibrary(
        name: name,
        path: "Shared/\(name)",
        pkgConfig: pkgConfig,
        providers: [.apt([apt])]
    )
}

let package = Package(
    name: "Kindred",
    platforms: [.macOS(.v15)],
    products: [
        // What Tests/Fuzz (a package of its own, so its sanitizer flags stay out of this build) links against.
        .library(
            name: "KindredFuzzable",
            targets: [
                "KindredRPC", "KindredMessages", "KindredAPI", "KindredAuth", "KindredHandlers",
                "KindredPostgres",
            ]
        )
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-collections.git", from: "1.6.0"),
    ],
    targets: [
        systemLibrary("CNGHTTP2", pkgConfig: "libnghttp2", apt: "libnghttp2-dev"),
        systemLibrary("CProtobufC", pkgConfig: "libprotobuf-c", apt: "libprotobuf-c-dev"),
        systemLibrary("CLibPQ", pkgConfig: "libpq", apt: "libpq-dev"),
        systemLibrary("CSodium", pkgConfig: "libsodium", apt: "libsodium-dev"),
        systemLibrary("CZlib", pkgConfig: "zlib", apt: "zlib1g-dev"),
        systemLibrary("CLinuxSystem", pkgConfig: nil, apt: "libc6-dev"),
        systemLibrary("CSSL", pkgConfig: "openssl", apt: "libssl-dev"),
        systemLibrary("CCurl", pkgConfig: "libcurl", apt: "libcurl4-openssl-dev"),

        .target(
            name: "CKindredProto",
            dependencies: ["CProtobufC"],
            path: "Shared/CKindredProto"
        ),
        .target(
            name: "KindredThreads",
            dependencies: ["CLinuxSystem"],
            path: "Shared/KindredThreads"
        ),
        .target(
            name: "KindredMessages",
            dependencies: ["CKindredProto"],
            path: "Shared/KindredMessages"
        ),
        // Prometheus counters and histograms on atomics, the text format, and W3C trace context.
        .target(
            name: "KindredMetrics",
            dependencies: [.product(name: "Logging", package: "swift-log")],
            path: "Shared/KindredMetrics",
            exclude: ["README.md"]
        ),
        .testTarget(
            name: "KindredMetricsTests",
            dependencies: ["KindredMetrics", .product(name: "Logging", package: "swift-log")],
            path: "Tests/KindredMetricsTests"
        ),
        .target(
            name: "KindredRPC",
            dependencies: [
                "KindredMessages", "KindredAuth", "KindredThreads", "CNGHTTP2", "CZlib", "CLinuxSystem",
                "KindredMetrics", "CSSL",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "DequeModule", package: "swift-collections"),
            ],
            path: "Shared/KindredRPC",
            exclude: ["README.md"]
        ),
        .target(
            name: "KindredAPI",
            dependencies: ["KindredMessages", "KindredRPC"],
            path: "Shared/KindredAPI"
        ),
        .executableTarget(
            name: "MessagesMemoryCheck",
            dependencies: ["KindredMessages"],
            path: "Tests/MessagesMemoryCheck"
        ),
        // Helpers for the test targets only (private PostgreSQL clusters, loopback ports, shared state).
        .target(
            name: "KindredTestSupport",
            dependencies: [
                "KindredAuth", "KindredEvents", "KindredMail", "KindredPostgres", "KindredRPC",
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Tests/KindredTestSupport",
            exclude: ["README.md"]
        ),
        .testTarget(
            name: "KindredTestSupportTests",
            dependencies: ["KindredTestSupport"],
            path: "Tests/KindredTestSupportTests"
        ),
        .testTarget(
            name: "KindredMessagesTests",
            dependencies: ["KindredMessages", "KindredTestSupport"],
            path: "Tests/KindredMessagesTests"
        ),
        .testTarget(
            name: "KindredRPCTests",
            dependencies: [
                "KindredRPC", "KindredMessages", "KindredAuth", "CNGHTTP2", "KindredTestSupport",
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Tests/KindredRPCTests"
        ),
        .target(
            name: "KindredPostgres",
            dependencies: [
                "CLibPQ", "CSodium", "CLinuxSystem", "KindredThreads", "KindredMetrics",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "DequeModule", package: "swift-collections"),
            ],
            path: "Shared/KindredPostgres",
            exclude: ["README.md"]
        ),
        .executableTarget(
            name: "PostgresBench",
            dependencies: ["KindredPostgres", .product(name: "Logging", package: "swift-log")],
            path: "Tests/PostgresBench"
        ),
        .executableTarget(
            name: "SealingBench",
            dependencies: [
                "KindredAuth", "KindredPostgres", .product(name: "Logging", package: "swift-log"),
            ],
            path: "Tests/SealingBench"
        ),
        .executableTarget(
            name: "EventsBench",
            dependencies: [
                "KindredEvents", "KindredPostgres", "KindredAuth",
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Tests/EventsBench"
        ),
        .testTarget(
            name: "KindredPostgresTests",
            dependencies: [
                "KindredPostgres", "KindredTestSupport", .product(name: "Logging", package: "swift-log"),
            ],
            path: "Tests/KindredPostgresTests"
        ),
        .target(
            name: "KindredMail",
            dependencies: [
                "KindredAuth", "KindredPostgres", "KindredThreads", "KindredMetrics", "CCurl",
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Shared/KindredMail",
            exclude: ["README.md"]
        ),
        .testTarget(
            name: "KindredMailTests",
            dependencies: [
                "KindredMail", "KindredAuth", "KindredPostgres", "KindredTestSupport", "CCurl",
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Tests/KindredMailTests"
        ),
        .target(
            name: "KindredRuntime",
            dependencies: [
                "KindredAPI", "KindredMessages", "KindredRPC", "KindredPostgres", "KindredAuth",
                "KindredMail",
                "KindredEvents", "KindredThreads", "KindredMetrics",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            path: "Shared/KindredRuntime"
        ),
        // What a handler uses (ids, clocks, paging, field violations, refusals); no process start-up in it.
        .target(
            name: "KindredHandlers",
            dependencies: [
                "KindredMessages", "KindredRPC", "KindredAuth", "KindredEvents", "KindredPostgres",
            ],
            path: "Shared/KindredHandlers",
            exclude: ["README.md"]
        ),
        .testTarget(
            name: "KindredHandlersTests",
            dependencies: [
                "KindredHandlers", "KindredMessages", "KindredAuth", "KindredPostgres", "KindredTestSupport",
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Tests/KindredHandlersTests"
        ),
        .testTarget(
            name: "KindredRuntimeTests",
            dependencies: [
                "KindredRuntime", "KindredMessages", "KindredPostgres", "KindredRPC", "KindredAuth",
                "KindredMail", "KindredTestSupport",
            ],
            path: "Tests/KindredRuntimeTests"
        ),
        .target(
            name: "KindredAuth",
            dependencies: [
                "CSodium", "KindredThreads", .product(name: "DequeModule", package: "swift-collections"),
            ],
            path: "Shared/KindredAuth",
            exclude: ["README.md"]
        ),
        .testTarget(
            name: "KindredAuthTests",
            dependencies: ["KindredAuth", "KindredTestSupport"],
            path: "Tests/KindredAuthTests"
        ),
        // What a call's access line costs the loop, beside the swift-log path it replaced.
        .executableTarget(
            name: "AccessLogBench",
            dependencies: [
                "KindredRuntime", "KindredRPC", "KindredMetrics",
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Tests/AccessLogBench"
        ),
        // What spreading calls over three addresses costs, beside one address (Tests/Benchmarks/README).
        .executableTarget(
            name: "BalancingBench",
            dependencies: [
                "KindredAPI", "KindredMessages", "KindredRPC",
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Tests/BalancingBench"
        ),
        .executableTarget(
            name: "AuthBench",
            dependencies: ["KindredAuth"],
            path: "Tests/AuthBench"
        ),
        .executableTarget(
            name: "SignInBench",
            dependencies: [
                "KindredAuth", "KindredAPI", "KindredMessages", "KindredPostgres", "KindredRPC",
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Tests/SignInBench"
        ),
        .executableTarget(
            name: "kindred-baby-bench",
            dependencies: ["KindredAPI", "KindredMessages", "KindredRPC"],
            path: "Tests/BabyBench"
        ),
        // The load test (issue 17): its logic (histograms, the mix, the open-loop schedule, the report) in a
        // library its tests reach, and the tool itself on Kindred's own client.
        .target(
            name: "LoadTestKit",
            dependencies: ["KindredAuth"],
            path: "Tests/LoadTestKit"
        ),
        .testTarget(
            name: "LoadTestKitTests",
            dependencies: ["LoadTestKit"],
            path: "Tests/LoadTestKitTests"
        ),
        .executableTarget(
            name: "kindred-loadtest",
            dependencies: [
                "LoadTestKit", "KindredAPI", "KindredAuth", "KindredMessages", "KindredPostgres",
                "KindredRPC", "KindredThreads", .product(name: "Logging", package: "swift-log"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            path: "Tests/LoadTest",
            exclude: ["README.md", "mix.json"]
        ),
        .executableTarget(
            name: "kindred-social-bench",
            dependencies: ["KindredAPI", "KindredMessages", "KindredRPC"],
            path: "Tests/SocialBench"
        ),
        // The services served for real on loopback (identity, family, social) over one test database, for
        // every service's test target. Debug builds only: its files are `#if DEBUG`, since a release build
        // compiles every target and the services are testable (`@testable import`) only in debug.
        .target(
            name: "ServiceTestSupport",
            dependencies: [
                "IdentityService", "FamilyService", "SocialService", "GamificationService", "KindredAPI",
                "KindredAuth", "KindredEvents",
                "KindredMail", "KindredMessages", "KindredPostgres", "KindredRPC", "KindredRuntime",
                "KindredTestSupport", .product(name: "Logging", package: "swift-log"),
            ],
            path: "Tests/ServiceTestSupport",
            exclude: ["README.md"]
        ),
        .testTarget(
            name: "IdentityServiceTests",
            dependencies: [
                "IdentityService", "KindredAPI", "KindredAuth", "KindredMessages", "KindredPostgres",
                "KindredRPC", "KindredRuntime",
                "KindredHandlers", "KindredMail", "KindredEvents", "KindredTestSupport",
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Tests/IdentityServiceTests"
        ),
        .testTarget(
            name: "FamilyServiceTests",
            dependencies: [
                "FamilyService", "IdentityService", "SocialService", "KindredAPI", "KindredAuth",
                "KindredMessages",
                "KindredPostgres", "KindredRPC", "KindredRuntime", "KindredHandlers", "KindredMail",
                "KindredEvents",
                "KindredTestSupport", "ServiceTestSupport",
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Tests/FamilyServiceTests"
        ),
        .testTarget(
            name: "SocialServiceTests",
            dependencies: [
                "SocialService", "FamilyService", "IdentityService", "KindredAPI", "KindredAuth",
                "KindredMessages",
                "KindredPostgres", "KindredRPC", "KindredRuntime", "KindredHandlers", "KindredEvents",
                "KindredTestSupport", "ServiceTestSupport",
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Tests/SocialServiceTests"
        ),
        .testTarget(
            name: "GamificationServiceTests",
            dependencies: [
                "GamificationService", "KindredAPI", "KindredAuth", "KindredMessages", "KindredPostgres",
                "KindredRPC", "KindredRuntime", "KindredHandlers", "KindredEvents", "KindredTestSupport",
                "ServiceTestSupport", .product(name: "Logging", package: "swift-log"),
            ],
            path: "Tests/GamificationServiceTests"
        ),
        // Issue 18: every method of the four services (as reflection lists them) called by every kind of caller.
        .testTarget(
            name: "AuthorizationMatrixTests",
            dependencies: [
                "IdentityService", "KindredAPI", "KindredAuth", "KindredHandlers", "KindredMessages",
                "KindredPostgres", "KindredRPC", "KindredRuntime", "KindredTestSupport", "ServiceTestSupport",
            ],
            path: "Tests/AuthorizationMatrix",
            exclude: ["README.md"]
        ),
        .target(
            name: "KindredEvents",
            dependencies: [
                "KindredAuth", "KindredPostgres", "KindredThreads", "KindredMetrics",
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Shared/KindredEvents",
            exclude: ["README.md"]
        ),
        .testTarget(
            name: "KindredEventsTests",
            dependencies: [
                "KindredEvents", "KindredPostgres", "KindredTestSupport", "KindredAuth",
                "KindredMetrics",
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Tests/KindredEventsTests"
        ),
        .executableTarget(
            name: "kindred-interop-server",
            dependencies: [
                "KindredRuntime", "KindredAPI", "KindredMessages", "KindredRPC", "KindredPostgres",
                "KindredAuth",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            path: "Tests/InteropServer"
        ),
    ]
        + ["Identity", "Family", "Social", "Gamification"].flatMap(service),
    swiftLanguageModes: [.v6]
)

// Every Swift module, tests included: a plain `import` is internal, so a module's `public import`s are
// exactly the modules its API exposes, and a dependency cannot leak to its dependents by accident.
// The C modules (the system libraries and CKindredProto, all named C*) have no Swift to set it on.
let kindredSwiftSettings: [SwiftSetting] = [.enableUpcomingFeature("InternalImportsByDefault")]
for target in package.targets where target.type != .system && !target.name.hasPrefix("C") {
    target.swiftSettings = (target.swiftSettings ?? []) + kindredSwiftSettings
}

// The runtime's hot path without the dynamic exclusivity checks in release builds, as the Swift standard library
// is built: every connection and call is a class whose state the loop's code mutates through its properties, and
// each such access paid `swift_beginAccess` (a thread-local access set) — 9–10% of a Health/Check's CPU (4.57
// against 4.14 µs a call, pinned, alternating runs; Shared/KindredRPC/README.md, "Exclusivity checks"). The
// compile-time checks stay, and debug builds, which every `swift test` runs, keep the dynamic ones.
for target in package.targets where target.name == "KindredRPC" {
    target.swiftSettings! += [
        .unsafeFlags(["-enforce-exclusivity=unchecked"], .when(configuration: .release))
    ]
}
