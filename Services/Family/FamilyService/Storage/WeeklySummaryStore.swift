import FoundationEssentials
import KindredHandlers
import KindredMessages
import KindredPostgres

/// The SQL of the weekly summary: which guardians are due one, the claim on a guardian's week
/// (`family.weekly_summaries`), each guarded minor's counts, and forgetting old activity.
enum WeeklySummaryStore {
    /// Up to `limit` guardians after `after` (by id) with the summary on and no summary of `week` yet.
    static func dueGuardians(of week: SummaryWeek, after: UserID, limit: Int, on db: PostgresPool)
        async throws
        -> [UserID]
    {
        try await db.pureRead(
            """
            SELECT l.guardian_id::text
            FROM family.guardian_links l
            LEFT JOIN family.notification_settings s ON s.user_id = l.guardian_id
            WHERE l.guardian_id > \(after)::uuid AND coalesce(s.weekly_summary, true)
              AND NOT EXISTS (SELECT 1 FROM family.weekly_summaries w
                              WHERE w.guardian_id = l.guardian_id AND w.week_start = \(week.start))
            GROUP BY l.guardian_id ORDER BY l.guardian_id LIMIT \(limit)
            """
        ).decode(UserID.self)
    }

    /// Claims `guardian`'s summary of `week`; false when it was claimed before. A concurrent claim waits for
    /// this transaction and then finds the week taken.
    static func claim(_ guardian: UserID, _ week: SummaryWeek, at now: Date, in tx: PostgresTransaction)
        async throws -> Bool
    {
        try await !tx.query(
            """
            INSERT INTO family.weekly_summaries (guardian_id, week_start, sent_at)
            VALUES (\(guardian)::uuid, \(week.start), \(now))
            ON CONFLICT (guardian_id, week_start) DO NOTHING
            RETURNING 1
            """
        ).isEmpty
    }

    /// Each minor `guardian` guards, with their activity in `week`.
    static func counts(for guardian: UserID, in week: SummaryWeek, _ tx: PostgresTransaction) async throws
        -> [(minorID: UserID, newContacts: Int, eventsJoined: Int, reports: Int)]
    {
        let contact = Kindred_Family_V1_NotificationKind.minorNewContact.rawValue
        let joined = Kindred_Family_V1_NotificationKind.minorJoinedPublicEvent.rawValue
        let reported = Kindred_Family_V1_NotificationKind.minorContentReported.rawValue
        return try await tx.query(
            """
            SELECT l.minor_id::text,
                count(*) FILTER (WHERE a.kind = \(contact)::smallint),
                count(*) FILTER (WHERE a.kind = \(joined)::smallint),
                count(*) FILTER (WHERE a.kind = \(reported)::smallint)
            FROM family.guardian_links l
            LEFT JOIN family.minor_activity a ON a.minor_id = l.minor_id
                AND a.occurred_at >= \(week.start) AND a.occurred_at < \(week.end)
            WHERE l.guardian_id = \(guardian)::uuid
            GROUP BY l.minor_id ORDER BY l.minor_id
            """
        ).decode((UserID, Int, Int, Int).self).map { ($0, $1, $2, $3) }
    }

    /// Deletes the activity that occurred before `instant`, `limit` rows a statement.
    static func forgetActivity(
        before instant: Date, batchesOf limit: Int = PostgresPool.sweepBatch, on db: PostgresPool
    ) async throws {
        try await db.deleteInBatches(
            from: "family.minor_activity", where: "occurred_at < \(instant)", limit: limit)
    }
}
