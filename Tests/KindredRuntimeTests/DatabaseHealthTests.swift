import KindredPostgres
import KindredTestSupport
import Logging
import Testing

@testable import KindredRuntime

/// Health follows PostgreSQL: this test stops and starts a cluster of its own (so that the shared test
/// cluster, and every test using it, is left alone) and watches the board flip.
@Suite struct DatabaseHealthTests {
    @Test(.timeLimit(.minutes(2)), .privateCluster("runtime-health"))
    func healthIsNotServingWhilePostgresIsDownAndServingWhenItIsBack() async throws {
        let cluster = try PrivateCluster.current
        var logger = Logger(label: "database-health-test")
        logger.logLevel = .warning
        let pool = PostgresPool(
            configuration: try PostgresConfiguration(url: cluster.url, poolSize: 1), logger: logger)
        let board = HealthStatusBoard()
        let served = StandardServices(board: board, services: [])
        let following = served.follow(pool)
        defer { following.cancel() }

        try await waitFor(.serving, on: board)
        try await cluster.stop()
        try await waitFor(.notServing, on: board)
        #expect(served.names.allSatisfy { board.status(of: $0) == .notServing })
        try await cluster.start()
        try await waitFor(.serving, on: board)
        await pool.close()
    }

    private func waitFor(_ status: HealthStatusBoard.Status, on board: HealthStatusBoard) async throws {
        for await current in board.watch("") where current == status { return }
        Issue.record("health never became \(status)")
    }
}
