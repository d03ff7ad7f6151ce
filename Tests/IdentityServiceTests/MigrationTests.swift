@testable import IdentityService
import KindredPostgres
import Testing

@Suite("Identity schema")
struct IdentityMigrationTests {
    @Test func everyShippedMigrationApplies() async throws {
        try await IdentityTestDatabase.withDatabase { pool in
            let rows = try await pool.query("SELECT max(version) FROM identity.schema_migrations")
            #expect(try rows[0].decode(Int.self) == IdentityMigrations.all.last?.version)
        }
    }

    @Test func usernamesAndEmailsAreUniqueIgnoringCase() async throws {
        try await IdentityTestDatabase.withDatabase { pool in
            let insert = { (id: String, username: String, email: String) in
                try await pool.query(
                    """
                    INSERT INTO identity.accounts (id, username, email, password_hash, date_of_birth, age_band,
                        age_assurance_method, age_assured_at, parental_controls)
                    VALUES (\(id), \(username), \(email), 'x', '2000-01-01', '18+', 'self_declared', now(), false)
                    """)
            }
            _ = try await insert("0192f5e0-7c1a-7b3e-8f00-000000000001", "Mia_R", "mia@example.com")
            await #expect(throws: PostgresError.self) {
                _ = try await insert("0192f5e0-7c1a-7b3e-8f00-000000000002", "mia_r", "other@example.com")
            }
            await #expect(throws: PostgresError.self) {
                _ = try await insert("0192f5e0-7c1a-7b3e-8f00-000000000003", "someone", "MIA@example.com")
            }
        }
    }
}
