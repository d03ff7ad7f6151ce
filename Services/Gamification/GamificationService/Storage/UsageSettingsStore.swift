import KindredHandlers
import KindredPostgres

/// `gamification.usage_settings`: a user's time zone, hidden apps and standing app.
enum UsageSettingsStore {
    /// `user`'s settings; the defaults (UTC, nothing hidden, no standing app) for a user without a row.
    static func settings(of user: UserID, on db: some StatementRunner) async throws -> UsageSettings {
        let rows = try await db.pureRead(
            """
            SELECT s.time_zone, s.standing_app_id, hidden.app_id
            FROM gamification.usage_settings s
            LEFT JOIN LATERAL unnest(s.hidden_apps) WITH ORDINALITY AS hidden (app_id, position) ON true
            WHERE s.user_id = \(user)::uuid ORDER BY hidden.position
            """)
        guard !rows.isEmpty else { return UsageSettings.defaults }
        let (zone, standing, _) = try rows[0].decode((String, String, String?).self)
        let hidden = try rows.compactMap { row in try row.decode(String?.self, column: 2) }
        return UsageSettings(timeZone: zone, hiddenApps: hidden, standingAppID: standing)
    }

    /// Replaces `user`'s settings with `settings`; false, changing nothing, when PostgreSQL's zone database
    /// does not know the time zone. The zone is looked up in `pg_timezone_names` (a scan of the zone files,
    /// milliseconds), which only this rare write pays.
    static func replace(_ settings: UsageSettings, of user: UserID, on db: some StatementRunner) async throws
        -> Bool
    {
        let rows = try await db.query(
            """
            INSERT INTO gamification.usage_settings AS s (user_id, time_zone, hidden_apps, standing_app_id)
            SELECT \(user)::uuid, \(settings.timeZone), \(PostgresArray(settings.hiddenApps))::text[],
                \(settings.standingAppID)
            WHERE EXISTS (SELECT 1 FROM pg_timezone_names WHERE name = \(settings.timeZone))
            ON CONFLICT (user_id) DO UPDATE SET time_zone = excluded.time_zone,
                hidden_apps = excluded.hidden_apps, standing_app_id = excluded.standing_app_id
            RETURNING 1
            """)
        return !rows.isEmpty
    }
}
