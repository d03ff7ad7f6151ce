import Foundation
@testable import IdentityService
import KindredPostgres
import Logging

/// A fresh database per test, migrated like the real `identity` schema, on the cluster that
/// `Tests/postgres-test-cluster` prepares (`KINDRED_TEST_DATABASE_URL`, a superuser URL).
enum IdentityTestDatabase {
    struct SetupError: Error, CustomStringConvertible {
        let description: String
    }

    static var logger: Logger {
        var logger = Logger(label: "identity-tests")
        logger.logLevel = .warning
        return logger
    }

    // Swift Testing runs every test at once; each database here holds several connections (its pool, a
    // server's loop connections, a second "instance"), and the shared test cluster serves every test target.
    // Six databases at a time keep the whole suite well inside the cluster's max_connections.
    private static let slots = TestSlots(6)

    /// Runs `body` with a pool on a new database holding a migrated `identity` schema; the database is
    /// dropped afterwards, whatever happens.
    static func withDatabase<T>(_ body: (PostgresPool) async throws -> T) async throws -> T {
        await slots.acquire()
        defer { slots.release() }
        let url = try clusterURL()
        let name = "identity_test_" + String(UInt64.random(in: 0...UInt64.max), radix: 36)
        try await administer(url, "CREATE DATABASE \(name)")
        let pool = PostgresPool(
            configuration: try PostgresConfiguration(url: url.replacing("/kindred_test?", with: "/\(name)?"), poolSize: 4),
            logger: logger)
        let result: Result<T, any Error>
        do {
            _ = try await pool.query("CREATE SCHEMA identity")
            _ = try await MigrationRunner(schema: "identity", migrations: IdentityMigrations.all).migrate(pool)
            result = .success(try await body(pool))
        } catch {
            result = .failure(error)
        }
        await pool.close()
        try? await administer(url, "DROP DATABASE \(name)")
        return try result.get()
    }

    /// Runs one statement on the cluster's own test database (CREATE/DROP DATABASE cannot be parameters).
    private static func administer(_ url: String, _ sql: String) async throws {
        let admin = PostgresPool(configuration: try PostgresConfiguration(url: url, poolSize: 1), logger: logger)
        do {
            _ = try await admin.query(PostgresQuery(unsafeSQL: sql))
        } catch {
            await admin.close()
            throw error
        }
        await admin.close()
    }

    private static func clusterURL() throws -> String {
        guard let url = ProcessInfo.processInfo.environment["KINDRED_TEST_DATABASE_URL"], !url.isEmpty,
            url.contains("/kindred_test?")
        else {
            throw SetupError(
                description: """
                    KINDRED_TEST_DATABASE_URL is not set to Tests/postgres-test-cluster's URL: these tests need a \
                    real PostgreSQL. Run `export KINDRED_TEST_DATABASE_URL=$(Tests/postgres-test-cluster start)`, \
                    or use Tests/run.
                    """)
        }
        return url
    }
}
