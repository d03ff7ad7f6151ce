import FoundationEssentials
import KindredHandlers
import KindredPostgres

/// `gamification.usage_coverage`: per user and UTC day, the sealed counts of what their stored sessions cover
/// (`UsageDayCounts`), read by an upload instead of the sessions themselves. A day still listed in
/// `gamification.usage_coverage_pending` (sessions stored before migration 20) has its counts built once, from its
/// sessions, by the first upload that touches it.
extension UsageStore {
    /// `user`'s counts on `days` (UTC midnights), opened, or built from the sessions for a pending day.
    static func counts(
        on days: [Date], of user: UserID, sealing: UsageSessions, in tx: PostgresTransaction
    ) async throws -> [UsageDayCounts] {
        let rows = try await tx.query(
            """
            SELECT d.day, c.coverage_sealed, p.user_id IS NOT NULL
            FROM unnest(\(PostgresArray(days))::timestamptz[]) AS d (day)
            LEFT JOIN gamification.usage_coverage c
                ON c.user_id = \(user)::uuid AND c.utc_day = (d.day AT TIME ZONE 'UTC')::date
            LEFT JOIN gamification.usage_coverage_pending p
                ON p.user_id = \(user)::uuid AND p.utc_day = (d.day AT TIME ZONE 'UTC')::date
            """)
        var counts: [UsageDayCounts] = []
        var pending: [Date] = []
        for row in rows {
            let day = try row.decode(Date.self, column: 0)
            if try row.decode(Bool.self, column: 2) {
                pending.append(day)
                counts.append(UsageDayCounts(day: day))
            } else if let sealed = try row.decode([UInt8]?.self, column: 1) {
                counts.append(try sealing.open(sealed, day: day, of: user))
            } else {
                counts.append(UsageDayCounts(day: day))
            }
        }
        guard !pending.isEmpty else { return counts }
        let built = try await sessions(coveringUTCDays: pending, of: user, sealing: sealing, in: tx)
        for index in counts.indices where pending.contains(counts[index].day) {
            for session in built { counts[index].add(session, 1) }
        }
        return counts
    }

    /// `user`'s stored sessions that can cover any of `days`: those that started on one of them or the day
    /// before (none lasts over 24 hours), opened.
    private static func sessions(
        coveringUTCDays days: [Date], of user: UserID, sealing: UsageSessions, in tx: PostgresTransaction
    ) async throws -> [UsageBatch.Session] {
        let rows = try await tx.query(
            """
            SELECT client_session_id, app_id, started_at, ended_at, updated_at, session_sealed
            FROM gamification.usage_sessions
            WHERE user_id = \(user)::uuid AND started_on IN (
                SELECT (d.day AT TIME ZONE 'UTC')::date - back
                FROM unnest(\(PostgresArray(days))::timestamptz[]) AS d (day), (VALUES (0), (1)) AS b (back))
            """)
        return try rows.map { try sealing.open(try storedSession($0), of: user) }
    }
}
