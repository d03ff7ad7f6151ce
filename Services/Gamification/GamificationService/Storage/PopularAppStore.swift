import KindredMessages
import KindredPostgres

/// `gamification.popular_apps`.
enum PopularAppStore {
    static func all(on db: some StatementRunner) async throws -> [Kindred_Gamification_V1_PopularApp] {
        try await db.pureRead("SELECT app_id, name FROM gamification.popular_apps ORDER BY position")
            .decode((String, String).self).map { Kindred_Gamification_V1_PopularApp(appID: $0.0, name: $0.1) }
    }

    /// Replaces every row with `apps`, numbered in order, in one transaction.
    static func replace(with apps: [Kindred_Gamification_V1_PopularApp], on pool: PostgresPool) async throws {
        try await pool.transaction { tx in
            try await tx.query("DELETE FROM gamification.popular_apps")
            try await tx.query(
                """
                INSERT INTO gamification.popular_apps (position, app_id, name)
                SELECT position, app_id, name
                FROM unnest(\(PostgresArray(apps.map(\.appID)))::text[], \(PostgresArray(apps.map(\.name)))::text[])
                    WITH ORDINALITY AS a (app_id, name, position)
                """)
        }
    }
}
