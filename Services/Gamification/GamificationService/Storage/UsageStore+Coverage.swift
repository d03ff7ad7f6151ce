import FoundationEssentials
import KindredHandlers
import KindredPostgres

/// `gamification.usage_coverage`: per user and UTC day, the sealed counts of what their stored sessions cover
/// (`UsageDayCounts`), read by an upload instead of the sessions themselves. A day still listed in
/// `gamification.usage_coverage_pending` (sessions stored before migration 20) has its counts built once, from its
/// sessions, by the first upload that touches it.
extension UsageStore {
    /// The statement reading the stored versions of `user`'s sessions `ids` (`versions`), with the zone each was
    /// counted in, and `user`'s counts on `days` (UTC midnights) and on the UTC days those versions start on and
    /// after, all that a replaced version can touch (none lasts over 24 hours) (`counts`): so an upload reads
    /// both in one statement, probing each session id once, before it knows which versions it replaces. A row
    /// is a version (columns 0 to 6, as `versions` reads them) or a day (columns 7 to 9).
    static func versionsAndCountsQuery(of ids: [String], on days: [Date], of user: UserID) -> PostgresQuery {
        // Scalar subqueries, a primary-key probe per day: joined (or as EXISTS, hashed), the planner read every
        // coverage and pending row of the user once the versions' days made the days no longer a plain list.
        """
        WITH versions AS MATERIALIZED (
            SELECT client_session_id, app_id, started_at, ended_at, updated_at, session_sealed, time_zone, started_on
            FROM gamification.usage_sessions
            WHERE user_id = \(user)::uuid AND client_session_id = ANY (\(PostgresArray(ids))::text[])),
        days (day) AS (
            SELECT unnest(\(PostgresArray(days))::timestamptz[])
            UNION SELECT (v.started_on + b.back)::timestamp AT TIME ZONE 'UTC'
            FROM versions v, (VALUES (0), (1)) AS b (back))
        SELECT client_session_id, app_id, started_at, ended_at, updated_at, session_sealed, time_zone,
            NULL::timestamptz, NULL::bytea, NULL::boolean
        FROM versions
        UNION ALL
        SELECT NULL, NULL, NULL, NULL, NULL, NULL, NULL, d.day,
            (SELECT c.coverage_sealed FROM gamification.usage_coverage c
                WHERE c.user_id = \(user)::uuid AND c.utc_day = (d.day AT TIME ZONE 'UTC')::date),
            coalesce((SELECT true FROM gamification.usage_coverage_pending p
                WHERE p.user_id = \(user)::uuid AND p.utc_day = (d.day AT TIME ZONE 'UTC')::date), false)
        FROM days d
        """
    }

    /// `user`'s counts on `days` (UTC midnights), opened from `rows` (`versionsAndCountsQuery`'s answer; a day
    /// it lacks is read now), or built from the sessions for a pending day.
    static func counts(
        on days: [Date], from rows: PostgresRows, of user: UserID, sealing: UsageSessions,
        in tx: PostgresTransaction
    ) async throws -> [UsageDayCounts] {
        var read = try coverage(rows)
        let missing = days.filter { read[UsageSessions.microseconds($0)] == nil }
        if !missing.isEmpty {
            // Only a stored version whose started_on disagreed with its sealed start could leave a day out.
            let more = try await tx.query(versionsAndCountsQuery(of: [], on: missing, of: user))
            read.merge(try coverage(more)) { _, new in new }
        }
        var counts: [UsageDayCounts] = []
        var pending: [Date] = []
        for day in days {
            let (sealed, isPending) = read[UsageSessions.microseconds(day)] ?? (nil, false)
            if isPending {
                pending.append(day)
                counts.append(UsageDayCounts(day: day))
            } else if let sealed {
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

    /// The day rows of `versionsAndCountsQuery`'s answer by day (its microseconds): the sealed counts, if any,
    /// and whether the day is pending.
    private static func coverage(_ rows: PostgresRows) throws -> [Int64: (sealed: [UInt8]?, pending: Bool)] {
        var coverage: [Int64: (sealed: [UInt8]?, pending: Bool)] = [:]
        for row in rows {
            guard let day = try row.decode(Date?.self, column: 7) else { continue }
            coverage[UsageSessions.microseconds(day)] = (
                try row.decode([UInt8]?.self, column: 8), try row.decode(Bool.self, column: 9)
            )
        }
        return coverage
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
