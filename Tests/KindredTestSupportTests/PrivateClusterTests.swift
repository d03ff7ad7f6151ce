import Foundation
import KindredTestSupport
import Testing

@Suite(.timeLimit(.minutes(2))) struct PrivateClusterTests {
    @Test func aClusterServesUntilStoppedServesAgainOnItsPortAndLeavesNoFileOnceDestroyed() async throws {
        let name = "support-" + String(UInt32.random(in: 0...UInt32.max), radix: 16)
        let cluster = try await PrivateCluster(name: name)
        let port = try #require(Self.port(of: cluster.url))
        #expect(Loopback.accepts(port))

        try await cluster.stop()
        #expect(!Loopback.accepts(port))
        try await cluster.start()
        #expect(Loopback.accepts(port))
        try await cluster.restart()
        #expect(Loopback.accepts(port))

        await cluster.destroy()
        #expect(!Loopback.accepts(port))
        let left = try FileManager.default.contentsOfDirectory(atPath: "/tmp").filter {
            $0.hasPrefix("kindred-\(name)-")
        }
        #expect(left.isEmpty)
    }

    @Test func codeOutsideAPrivateClusterTraitIsToldSo() {
        #expect(throws: TestFailure.self) { try PrivateCluster.current }
    }

    /// The TCP port in a URL of Tests/postgres-test-cluster (`…&port=N`).
    private static func port(of url: String) -> Int? {
        url.split(separator: "port=").last.flatMap { Int($0) }
    }
}
