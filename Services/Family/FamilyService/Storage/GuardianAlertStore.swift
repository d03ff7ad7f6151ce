import KindredHandlers
import KindredPostgres

/// The SQL of guardian alerts: who guards a minor (`family.guardian_links`) with their activity-alert
/// setting, and the minor's activity (`family.minor_activity`).
enum GuardianAlertStore {
    /// The guardians of `minor` with whether they want activity alerts (no settings row: they do).
    static func recipients(of minor: UserID, in tx: PostgresTransaction) async throws
        -> [(guardianID: UserID, activityAlerts: Bool)]
    {
        try await tx.query(
            """
            SELECT l.guardian_id::text, coalesce(s.activity_alerts, true)
            FROM family.guardian_links l
            LEFT JOIN family.notification_settings s ON s.user_id = l.guardian_id
            WHERE l.minor_id = \(minor)::uuid
            ORDER BY l.guardian_id
            """
        ).decode((UserID, Bool).self).map { ($0, $1) }
    }

    /// Records `alert` as the minor's activity; false when its event was recorded before.
    static func recordActivity(_ alert: GuardianAlert, in tx: PostgresTransaction) async throws -> Bool {
        try await !tx.query(
            """
            INSERT INTO family.minor_activity (minor_id, event_key, kind, occurred_at)
            VALUES (\(alert.minorID)::uuid, \(alert.eventKey), \(alert.kind.rawValue)::smallint, \(alert.occurredAt))
            ON CONFLICT (minor_id, event_key) DO NOTHING
            RETURNING 1
            """
        ).isEmpty
    }
}
