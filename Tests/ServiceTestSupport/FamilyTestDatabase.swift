// Debug builds only (the services are testable there): see README.md.
#if DEBUG
@testable import FamilyService
@testable import GamificationService
@testable import IdentityService
@testable import SocialService
import KindredPostgres
import KindredTestSupport
import Logging

/// A fresh database per test holding the `family` schema and, beside it, the `identity`, `social` and
/// `gamification` schemas the test stack's other services serve from, each migrated like the real one (see `TestDatabase`).
enum FamilyTestDatabase {
    static var logger: Logger {
        var logger = Logger(label: "family-tests")
        logger.logLevel = .warning
        return logger
    }

    /// Runs `body` with a pool on a new database; the database is dropped afterwards, whatever happens.
    static func withDatabase<T>(_ body: (PostgresPool) async throws -> T) async throws -> T {
        try await TestDatabase.with(
            "family_test",
            schemas: [
                ("identity", IdentityMigrations.all), ("family", FamilyMigrations.all),
                ("social", SocialMigrations.all), ("gamification", GamificationMigrations.all),
            ],
            logger: logger, body)
    }
}
#endif
