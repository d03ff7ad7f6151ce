import Foundation

/// The cluster that Tests/run starts for all Swift tests, named by `KINDRED_TEST_DATABASE_URL` (a superuser
/// URL). Nobody stops it while they run: tests that stop or restart a server use a `PrivateCluster`.
public enum SharedCluster {
    /// The superuser URL of the cluster's `kindred_test` database, or a failure that says how to get one.
    public static func url() throws -> String {
        guard let url = environment("KINDRED_TEST_DATABASE_URL") else {
            throw TestFailure(
                """
                KINDRED_TEST_DATABASE_URL is not set: these tests need a real PostgreSQL. Run \
                `export KINDRED_TEST_DATABASE_URL=$(Tests/postgres-test-cluster start)`, or use Tests/run.
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

    /// How Tests/postgres-test-cluster's URL names its database.
    private static let databasePath = "/kindred_test?"

    private static func environment(_ name: String) -> String? {
        ProcessInfo.processInfo.environment[name].flatMap { $0.isEmpty ? nil : $0 }
    }
}
