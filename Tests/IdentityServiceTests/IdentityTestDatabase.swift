import Foundation
@testable import IdentityService
import KindredPostgres
import KindredTestSupport
import Logging

/// A fresh database per test, migrated like the real `identity` schema, on the shared test cluster
/// (`SharedCluster`).
enum IdentityTestDatabase {
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
        let name = "identity_test_" + String(UInt64.random(in: 0...UInt64.max), radix: 36)
        let url = try SharedCluster.url()
        let databaseURL = try SharedCluster.url(database: name)
        try await administer(url, "CREATE DATABASE \(name)")
        let pool = PostgresPool(
            configuration: try PostgresConfiguration(url: databaseURL, poolSize: 4), logger: logger)
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
}
