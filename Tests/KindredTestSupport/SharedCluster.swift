import Foundation

/// The cluster that Tests/run starts for all Swift tests (by hand: Shared/KindredPostgres/README.md), named
/// by `KINDRED_TEST_DATABASE_URL` (a superuser URL) and controlled through `KINDRED_TEST_PG_CTL`.
public enum SharedCluster {
    /// The superuser URL of the cluster's `kindred_test` database, or a failure that says how to get one.
    public static func url() throws -> String {
        guard let url = environment("KINDRED_TEST_DATABASE_URL") else {
            throw TestFailure(
                """
                KINDRED_TEST_DATABASE_URL is not set: these tests need a real PostgreSQL. Run \
                `export KINDRED_TEST_DATABASE_URL=$(Tests/postgres-test-cluster start)` and \
                `export KINDRED_TEST_PG_CTL=$PWD/Tests/postgres-test-cluster`, or use Tests/run.
                """)
        }
        return url
    }

    /// The same URL for database `name` of the cluster (which the caller creates).
    public static func url(database name: String) throws -> String {
        let url = try url()
        guard url.contains(databasePath) else {
            throw TestFailure(
                "KINDRED_TEST_DATABASE_URL is not Tests/postgres-test-cluster's: no \(databasePath)")
        }
        return url.replacing(databasePath, with: "/\(name)?")
    }

    /// Runs `KINDRED_TEST_PG_CTL` with `verb`: `stop`, `start`, `restart`.
    public static func control(_ verb: String) throws {
        guard let command = environment("KINDRED_TEST_PG_CTL") else {
            throw TestFailure(
                """
                KINDRED_TEST_PG_CTL is not set: this test stops and starts the test server. Set it to \
                Tests/postgres-test-cluster (or a command taking stop/start/restart).
                """)
        }
        try ClusterCommand(command: command).run(verb)
    }

    /// How Tests/postgres-test-cluster's URL names its database.
    private static let databasePath = "/kindred_test?"

    private static func environment(_ name: String) -> String? {
        ProcessInfo.processInfo.environment[name].flatMap { $0.isEmpty ? nil : $0 }
    }
}
