import Foundation
import KindredTestSupport
import Testing

@Suite(.timeLimit(.minutes(2))) struct PrivateClusterTests {
    @Test func aClusterServesUntilStoppedServesAgainOnItsPortAndLeavesNoFileOnceDestroyed() async throws {
        let name = "support-" + String(UInt32.random(in: 0...UInt32.max), radix: 16)
        let cluster = try await PrivateCluster(name: name)
        let port = try #require(Self.port(of: cluster.url))
        #expect(Loopback.accepts(port))

        let socket = try #require(Self.socketFile(of: cluster.url))
        #expect(FileManager.default.fileExists(atPath: socket))
        // Stopped, its socket file is gone. (Its TCP port is free, and another test may be listening on it by now.)
        try await cluster.stop()
        #expect(!FileManager.default.fileExists(atPath: socket))
        try await cluster.start()
        #expect(Loopback.accepts(port) && FileManager.default.fileExists(atPath: socket))
        try await cluster.restart()
        #expect(Loopback.accepts(port) && FileManager.default.fileExists(atPath: socket))

        await cluster.destroy()
        #expect(!FileManager.default.fileExists(atPath: socket))
        let left = try FileManager.default.contentsOfDirectory(atPath: "/tmp").filter {
            $0.hasPrefix("kindred-\(name)-")
        }
        #expect(left.isEmpty)
    }

    @Test func codeOutsideAPrivateClusterTraitIsToldSo() {
        #expect(throws: TestFailure.self) { try PrivateCluster.current }
    }

    /// The TCP port in a URL of Tests/postgres-test-cluster (`…?host=DIR&port=N`).
    private static func port(of url: String) -> Int? {
        url.split(separator: "port=").last.flatMap { Int($0) }
    }

    /// The unix socket that URL names: `DIR/.s.PGSQL.N`, in a directory of the cluster's own.
    private static func socketFile(of url: String) -> String? {
        guard let host = url.split(separator: "host=").last?.split(separator: "&").first,
            let port = port(of: url)
        else { return nil }
        return "\(host)/.s.PGSQL.\(port)"
    }
}
