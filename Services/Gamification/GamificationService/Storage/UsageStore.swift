import FoundationEssentials
import KindredHandlers
import KindredPostgres

/// `gamification.usage_sessions` and `gamification.usage_daily`: a batch stored, sealed, with the daily totals
/// kept exact. Reads are in `UsageStore+Reads.swift`, the stored sessions' forms in `UsageStore+Sealed.swift`,
/// the days' counts an upload moves in `UsageStore+Coverage.swift`.
enum UsageStore {
    /// Stores `sessions` for `user` in one transaction, sealed: those new, or newer (by updated_at) than the
    /// stored version, are written, each day's total moves by the time of each app and device they newly cover
    /// or no longer cover (`UsageTally`: overlapping sessions of one app on one device count once), and reward
    /// unlocks that ended before the usage arrived are charged for it. Answers how many were written.
    ///
    /// The user's settings row (made here on the first upload) is locked first, so one user's batches are
    /// applied one at a time: the stored versions read next (opened here, since their app and times are sealed)
    /// are the ones the batch replaces, and the counts of the UTC days the batch touches (`UsageDayCounts`, what
    /// every stored session covers) are the ones it moves; no other batch changes either before this one
    /// commits. So an upload reads its own sessions' old versions and one or two days' counts, never the day's
    /// other sessions. Two round trips in all: first the lock, and behind it in the same pipeline the versions
    /// with the counts (one statement) and the ended unlocks (each statement of a pipeline takes its snapshot as
    /// it starts, so the reads, started once the lock is held, see every batch committed before it); then the
    /// COMMIT, which carries the write unless an ended unlock must read what it wrote.
    static func store(
        _ sessions: [UsageBatch.Session], of user: UserID, sealing: UsageSessions, on pool: PostgresPool
    ) async throws -> Int {
        try await pool.transaction { tx in
            let ids = sessions.map(\.clientSessionID)
            let held = try await tx.query([
                lockSettings(of: user),
                versionsAndCountsQuery(
                    of: ids, on: Set(sessions.flatMap { UsageDayCounts.days(of: $0.span) }).sorted(), of: user
                ),
                RewardStore.lateUnlocks(sessions, of: user),
            ])
            let zone = try held[0][0].decode(String.self, column: 0)
            let (versionsAndCounts, endedUnlocks) = (held[1], held[2])
            let stored = try versions(versionsAndCounts)
            var changes: [UsageTally.Change] = []
            for session in sessions {
                let old = try stored[session.clientSessionID].map {
                    (session: try sealing.open($0.stored, of: user), zone: $0.zone)
                }
                if let old,
                    UsageSessions.microseconds(old.session.updatedAt)
                        >= UsageSessions.microseconds(session.updatedAt)
                {
                    continue
                }
                changes.append(UsageTally.Change(new: session, old: old))
            }
            // A retry stores nothing new, and so has nothing new to charge.
            guard !changes.isEmpty else { return 0 }
            var counts = try await Self.counts(
                on: UsageTally.days(of: changes), from: versionsAndCounts, of: user, sealing: sealing, in: tx)
            let stretchesBefore = counts.map(\.stretches)
            for old in changes.compactMap(\.old) { counts.add(old.session, -1) }
            let tally = UsageTally(changes, others: counts, zone: zone)
            for change in changes { counts.add(change.new, 1) }
            try refuseGrowingPastTheBound(counts, from: stretchesBefore)
            let sealed = changes.map { sealing.seal($0.new, of: user) }
            let write = ingest(
                changes.map(\.new), sealed: sealed, replacing: changes.map { $0.old != nil }, moving: tally,
                counts: (counts.map(\.day), counts.map { sealing.seal($0, of: user) }), of: user, zone: zone)
            let late = try RewardStore.lateUnlocks(endedUnlocks, overlapping: changes.map(\.new))
            // Nothing later in the transaction reads what the write stores, unless an unlock is charged again.
            guard !late.isEmpty else {
                tx.queryAtCommit(write)
                return changes.count
            }
            try await tx.query(write)
            try await RewardStore.charge(late, of: user, sessions: sealing, in: tx)
            return changes.count
        }
    }

    /// USAGE_DAY_FULL when a day ends past `UsageDayCounts.maximumStretches` with more stretches than it began
    /// with (`before`, in the same order): a batch that adds none to such a day, or takes some away, still goes.
    private static func refuseGrowingPastTheBound(_ counts: [UsageDayCounts], from before: [Int]) throws {
        for (day, stretchesBefore) in zip(counts, before)
        where day.stretches > UsageDayCounts.maximumStretches && day.stretches > stretchesBefore {
            throw UsageError.dayFull
        }
    }

    /// Locks `user`'s settings row, made with the defaults if there is none, and answers its time zone. The
    /// row is only locked (`FOR NO KEY UPDATE`, no new row version) when it exists, which is every upload but
    /// the first; an upload that finds none inserts it, and one racing it to the insert waits for it and locks
    /// the row it made through `ON CONFLICT` (a new version only then).
    private static func lockSettings(of user: UserID) -> PostgresQuery {
        """
        WITH held AS (
            SELECT time_zone FROM gamification.usage_settings WHERE user_id = \(user)::uuid FOR NO KEY UPDATE),
        made AS (
            INSERT INTO gamification.usage_settings AS s (user_id)
            SELECT \(user)::uuid WHERE NOT EXISTS (SELECT FROM held)
            ON CONFLICT (user_id) DO UPDATE SET user_id = s.user_id
            RETURNING time_zone)
        SELECT time_zone FROM held UNION ALL SELECT time_zone FROM made
        """
    }

    /// One set-based statement for the whole batch: the sessions written sealed (the row keeps the sealed value
    /// and the UTC day the session started on; a new one inserted, a replaced one updated, as the versions read
    /// under the settings lock found them, since only an upload holding that lock adds a user's sessions), the
    /// days' counts written sealed (a pending day is pending no
    /// more), and the tally's moves applied to the days. A move counts on
    /// each local day it touches in its zone, the seconds between the later of its start and that day's
    /// midnight and the earlier of its end and the next midnight, both midnights placed by PostgreSQL's zone
    /// rules (a DST day is 23 or 25 hours long). The net change per day and app is applied once: decreases by
    /// UPDATE (the row exists, since the time taken back was added to it), increases by upsert, so no CHECK sees
    /// a negative total. The decreases' days are also an index condition: joined on them alone, the (generic)
    /// plan hashed every day row the user ever had. The built days are the pending list's index condition
    /// too, where a join on them let the generic plan read the list whole (a seeded user's 30 pending days: 24
    /// buffers an upload, now 3). Apps and times travel as parameters only.
    private static func ingest(
        _ sessions: [UsageBatch.Session], sealed: [[UInt8]], replacing: [Bool], moving tally: UsageTally,
        counts: (days: [Date], sealed: [[UInt8]]), of user: UserID, zone: String
    ) -> PostgresQuery {
        """
        WITH applied AS (
            SELECT * FROM unnest(\(PostgresArray(sessions.map(\.clientSessionID)))::text[],
                \(PostgresArray(sessions.map(\.start)))::timestamptz[], \(PostgresArray(sealed))::bytea[],
                \(PostgresArray(replacing))::boolean[])
                AS i (client_session_id, started_at, sealed, replacing)),
        inserted AS (
            INSERT INTO gamification.usage_sessions (user_id, client_session_id, session_sealed, started_on, time_zone)
            SELECT \(user)::uuid, client_session_id, sealed, (started_at AT TIME ZONE 'UTC')::date, \(zone)::text
            FROM applied WHERE NOT replacing
            RETURNING 1),
        replaced AS (
            UPDATE gamification.usage_sessions s
            SET session_sealed = a.sealed, started_on = (a.started_at AT TIME ZONE 'UTC')::date,
                time_zone = \(zone)::text, app_id = NULL, started_at = NULL, ended_at = NULL, updated_at = NULL
            FROM applied a
            WHERE s.user_id = \(user)::uuid AND s.client_session_id = a.client_session_id AND a.replacing
            RETURNING 1),
        covered AS (
            INSERT INTO gamification.usage_coverage AS c (user_id, utc_day, coverage_sealed)
            SELECT \(user)::uuid, (day AT TIME ZONE 'UTC')::date, sealed
            FROM unnest(\(PostgresArray(counts.days))::timestamptz[], \(PostgresArray(counts.sealed))::bytea[])
                AS k (day, sealed)
            ON CONFLICT (user_id, utc_day) DO UPDATE SET coverage_sealed = excluded.coverage_sealed
            RETURNING utc_day),
        built AS (
            DELETE FROM gamification.usage_coverage_pending p
            WHERE p.user_id = \(user)::uuid AND p.utc_day = ANY (ARRAY(SELECT utc_day FROM covered))),
        changes AS (
            SELECT * FROM unnest(\(PostgresArray(tally.moves.map(\.appID)))::text[],
                \(PostgresArray(tally.moves.map(\.span.lowerBound)))::timestamptz[],
                \(PostgresArray(tally.moves.map(\.span.upperBound)))::timestamptz[],
                \(PostgresArray(tally.moves.map(\.zone)))::text[], \(PostgresArray(tally.moves.map(\.sign)))::integer[])
                AS m (app_id, started_at, ended_at, zone, sign)),
        net AS (
            SELECT part.day, c.app_id, sum(c.sign * part.seconds)::integer AS delta
            FROM changes c CROSS JOIN LATERAL (
                SELECT midnight::date AS day,
                    round(extract(epoch FROM
                        least(c.ended_at, (midnight + interval '1 day') AT TIME ZONE c.zone)
                        - greatest(c.started_at, midnight AT TIME ZONE c.zone)))::integer AS seconds
                FROM generate_series((c.started_at AT TIME ZONE c.zone)::date::timestamp,
                    (c.ended_at AT TIME ZONE c.zone)::date::timestamp, interval '1 day') AS midnight) part
            GROUP BY part.day, c.app_id),
        lowered AS (
            UPDATE gamification.usage_daily d SET seconds = d.seconds + net.delta FROM net
            WHERE d.user_id = \(user)::uuid AND d.local_date = net.day AND d.app_id = net.app_id AND net.delta < 0
                AND d.local_date = ANY (ARRAY(SELECT day FROM net WHERE delta < 0))
            RETURNING 1),
        raised AS (
            INSERT INTO gamification.usage_daily AS d (user_id, local_date, app_id, seconds)
            SELECT \(user)::uuid, day, app_id, delta FROM net WHERE delta > 0
            ON CONFLICT (user_id, local_date, app_id) DO UPDATE SET seconds = d.seconds + excluded.seconds
            RETURNING 1)
        SELECT (SELECT count(*) FROM inserted) + (SELECT count(*) FROM replaced),
            (SELECT count(*) FROM lowered) + (SELECT count(*) FROM raised)
        """
    }

    /// Every row of `users` in the usage tables (identity's `user.deleted`, and the retention job); how many
    /// sessions went.
    @discardableResult
    static func deleteAll(of users: [UserID], in tx: PostgresTransaction) async throws -> Int {
        let ids = PostgresArray(users.map(\.description))
        let sessions = try await tx.query(
            "DELETE FROM gamification.usage_sessions WHERE user_id = ANY (\(ids)::uuid[])")
        try await tx.query("DELETE FROM gamification.usage_daily WHERE user_id = ANY (\(ids)::uuid[])")
        try await tx.query("DELETE FROM gamification.usage_coverage WHERE user_id = ANY (\(ids)::uuid[])")
        try await tx.query(
            "DELETE FROM gamification.usage_coverage_pending WHERE user_id = ANY (\(ids)::uuid[])")
        try await tx.query("DELETE FROM gamification.usage_settings WHERE user_id = ANY (\(ids)::uuid[])")
        return sessions.affectedRows
    }
}
