import Foundation
import KindredPostgres
import Logging
import Testing

@testable import KindredRuntime

/// Health follows PostgreSQL: this test stops and starts a cluster of its own (so that the shared test
/// cluster, and every test using it, is left alone) and watches the board flip.
@Suite struct DatabaseHealthTests {
    @Test(.timeLimit(.minutes(2))) func healthIsNotServingWhilePostgresIsDownAndServingWhenItIsBack() async throws {
        let cluster = try PrivateCluster(name: "runtime-health")
        defer { cluster.destroy() }
        var logger = Logger(label: "database-health-test")
        logger.logLevel = .warning
        let pool = PostgresPool(
            configuration: try PostgresConfiguration(url: try cluster.start(), poolSize: 1), logger: logger)
        let board = HealthStatusBoard()
        let served = StandardServices(board: board, services: [])
        let following = served.follow(pool)
        defer { following.cancel() }

        try await waitFor(.serving, on: board)
        cluster.run("stop")
        try await waitFor(.notServing, on: board)
        #expect(served.names.allSatisfy { board.status(of: $0) == .notServing })
        _ = try cluster.start()
        try await waitFor(.serving, on: board)
        await pool.close()
    }

    private func waitFor(_ status: HealthStatusBoard.Status, on board: HealthStatusBoard) async throws {
        for await current in board.watch("") where current == status { return }
        Issue.record("health never became \(status)")
    }
}

/// A throwaway cluster through Tests/postgres-test-cluster, in a directory and on a port of its own.
struct PrivateCluster {
    let script: String
    let environment: String
    let directory: String

    init(name: String) throws {
        let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        script = repository.appendingPathComponent("Tests/postgres-test-cluster").path
        directory = "/tmp/kindred-\(name)-\(getpid())"
        environment = "KINDRED_TEST_PG_DIR=\(directory) KINDRED_TEST_PG_PORT=\(try Self.freePort())"
    }

    /// Starts the cluster (creating it the first time) and returns its URL.
    func start() throws -> String {
        let output = directory + ".url"
        guard run("start > \(output)") else { throw ClusterError(description: "\(script) start failed") }
        return try String(contentsOfFile: output, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Runs one of the script's verbs; Foundation's Process is avoided because it can leave the test
    /// waiting on a child that the cluster's server inherits.
    @discardableResult
    func run(_ verb: String) -> Bool {
        system("\(environment) \(script) \(verb)") == 0
    }

    func destroy() {
        run("destroy")
        try? FileManager.default.removeItem(atPath: directory + ".url")
    }

    /// A port the kernel just handed out, so two runs on one machine do not collide.
    static func freePort() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { address in
                bind(fd, address, length) == 0 && getsockname(fd, address, &length) == 0
            }
        }
        guard bound else { throw ClusterError(description: "no free port") }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    struct ClusterError: Error, CustomStringConvertible {
        let description: String
    }
}
