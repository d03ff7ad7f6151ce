import Foundation
import KindredTestSupport
import Testing

@testable import KindredRPC

/// The local stack's replicas are named in a hosts file of its own (`deploy/local/up`, `KINDRED_REPLICAS`):
/// one name, every replica's address, as a headless Service's name answers in Kubernetes.
@Suite(.timeLimit(.minutes(1))) struct HostsFileResolverTests {
    static let hosts = """
        # made by deploy/local/up
        127.0.0.1 kindred-family
        127.0.0.2\tkindred-family   # the second replica
        127.0.0.2 kindred-family
        127.0.0.1 kindred-social other-name
        ::1 kindred-family
        not-an-address kindred-family
        """

    @Test func aNameResolvesToEveryAddressListedForItInTheFilesOrder() {
        let addresses = HostsFileResolver.addresses(of: "kindred-family", port: 50052, in: Self.hosts)
        #expect(addresses.map(\.description) == ["127.0.0.1:50052", "127.0.0.2:50052", "[::1]:50052"])
        #expect(HostsFileResolver.addresses(of: "other-name", port: 1, in: Self.hosts).count == 1)
        #expect(HostsFileResolver.addresses(of: "kindred", port: 1, in: Self.hosts).isEmpty)
    }

    @Test func aNameTheFileDoesNotListGoesToTheFallback() async throws {
        let fallback = ScriptedResolver([ResolvedAddress(numericHost: "127.0.0.9", port: 7)!])
        let resolver = HostsFileResolver(path: "/nonexistent/hosts", fallback: fallback)
        #expect(
            try await resolver.resolve(host: "kindred-family", port: 7).map(\.description) == ["127.0.0.9:7"])
    }

    /// The file is read at every resolution: a replica added to it is followed without a restart.
    @Test func callsSpreadOverEveryReplicaTheFileNamesAndFollowItsChanges() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = "\(directory)/hosts"
        try await onClientTestLoop {
            var fleet = try LoopbackFleet(["127.0.0.2", "127.0.0.3"])
            try "127.0.0.2 service.test\n127.0.0.3 service.test\n".write(
                toFile: path, atomically: true, encoding: .utf8)
            let resolver = HostsFileResolver(path: path, fallback: ScriptedResolver([]))
            let client = try balancingClient(resolver, port: fleet.port) { $0.resolveInterval = .seconds(1) }
            for _ in 0..<100 {
                let _: ClientTestText = try await client.unary(method: Self.echo, request: ClientTestText())
            }
            #expect(fleet.served.allSatisfy { $0 >= 40 }, "served per replica: \(fleet.served)")
            try fleet.add("127.0.0.4")
            try "127.0.0.2 service.test\n127.0.0.3 service.test\n127.0.0.4 service.test\n".write(
                toFile: path, atomically: true, encoding: .utf8)
            // The next resolution (every second here) reads the new line.
            while fleet.served[2] == 0 {
                let _: ClientTestText = try await client.unary(method: Self.echo, request: ClientTestText())
            }
            client.close()
            await fleet.stop()
        }
    }

    static let echo = ClientTestService.method("Echo")
}
