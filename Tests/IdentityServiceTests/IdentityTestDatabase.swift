@testable import IdentityService
import KindredPostgres
import KindredTestSupport
import Logging

/// A fresh database per test, migrated like the real `identity` schema (see `TestDatabase`).
enum IdentityTestDatabase {
    static var logger: Logger {
        var logger = Logger(label: "identity-tests")
        logger.logLevel = .warning
        return logger
    }

    /// Runs `body` with a pool on a new database holding a migrated `identity` schema; the database is
    /// dropped afterwards, whatever happens.
    static func withDatabase<T>(_ body: (PostgresPool) async throws -> T) async throws -> T {
        try await TestDatabase.with(
            "identity_test", schemas: [("identity", IdentityMigrations.all)], logger: logger, body)
    }
}
