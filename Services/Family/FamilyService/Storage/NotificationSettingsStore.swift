import FoundationEssentials
import KindredHandlers
import KindredMessages
import KindredPostgres

/// The SQL of `family.notification_settings`: no row means both on.
enum NotificationSettingsStore {
    /// `user`'s settings.
    static func settings(of user: UserID, on db: PostgresPool) async throws
        -> Kindred_Family_V1_NotificationSettings
    {
        let rows = try await db.pureRead(
            """
            SELECT activity_alerts, weekly_summary, array_to_string(muted_kinds, ',')
            FROM family.notification_settings WHERE user_id = \(user)::uuid
            """)
        guard let row = rows.first else {
            return Kindred_Family_V1_NotificationSettings(activityAlerts: true, weeklySummary: true)
        }
        let (activityAlerts, weeklySummary, muted) = try row.decode((Bool, Bool, String).self)
        return Kindred_Family_V1_NotificationSettings(
            activityAlerts: activityAlerts, weeklySummary: weeklySummary,
            mutedKinds: muted.split(separator: ",").compactMap { Int32($0) }.map {
                Kindred_Family_V1_NotificationKind(rawValue: $0)
            })
    }

    /// Stores `settings` as `user`'s.
    static func update(
        _ settings: Kindred_Family_V1_NotificationSettings, of user: UserID, at now: Date, on db: PostgresPool
    ) async throws {
        try await db.query(
            """
            INSERT INTO family.notification_settings
                (user_id, activity_alerts, weekly_summary, muted_kinds, updated_at)
            VALUES (\(user)::uuid, \(settings.activityAlerts), \(settings.weeklySummary),
                \(PostgresArray(settings.mutedKinds.map(\.rawValue)))::smallint[], \(now))
            ON CONFLICT (user_id) DO UPDATE
            SET activity_alerts = EXCLUDED.activity_alerts, weekly_summary = EXCLUDED.weekly_summary,
                muted_kinds = EXCLUDED.muted_kinds, updated_at = EXCLUDED.updated_at
            """)
    }
}
