import FoundationEssentials
import KindredHandlers
import KindredMessages
import KindredPostgres

/// The sweep's claims and the results it records: a participant is claimed with `FOR UPDATE SKIP LOCKED`, so
/// instances sweeping at once take different participants, and decided only from `active`, so a second
/// sweep of a participant decided meanwhile changes nothing.
extension ChallengeStore {
    /// An active participant whose last day ended before `deadline`, claimed (row locked) for the transaction;
    /// nil when there is none unclaimed.
    static func claimDue(before deadline: Date, in tx: PostgresTransaction) async throws -> DueParticipant? {
        let rows = try await tx.query(
            """
            SELECT p.user_id, p.challenge_id, p.first_day::text, p.last_day::text FROM gamification.challenge_participants p
            WHERE p.state = 'active' AND p.ends_at <= \(deadline)
            ORDER BY p.ends_at LIMIT 1 FOR UPDATE SKIP LOCKED
            """)
        guard let row = rows.first else { return nil }
        let (user, challenge, firstDay, lastDay) = try row.decode((UserID, ChallengeID, String, String).self)
        return DueParticipant(user: user, challenge: challenge, firstDay: firstDay, lastDay: lastDay)
    }

    /// `user`'s use of `app` from `firstDay` to `lastDay` (their local dates): the seconds in all, and on how
    /// many of those days they went over `limitSeconds`.
    static func usage(
        of user: UserID, app: String, from firstDay: String, to lastDay: String, limitSeconds: Int,
        on db: some StatementRunner
    ) async throws -> (seconds: Int64, daysOver: Int64) {
        let rows = try await db.query(
            """
            SELECT COALESCE(sum(seconds), 0)::bigint, count(*) FILTER (WHERE seconds > \(limitSeconds))
            FROM (SELECT sum(seconds) AS seconds FROM gamification.usage_daily
                  WHERE user_id = \(user) AND app_id = \(app)
                      AND local_date BETWEEN \(firstDay)::date AND \(lastDay)::date
                  GROUP BY local_date) days
            """)
        return try rows[0].decode((Int64, Int64).self)
    }

    /// Records `outcome` for `user` in `challenge` if their part is still active: the part's new state and a
    /// result numbered next on the challenge's leaderboard. False when it was decided already.
    static func decide(
        _ user: UserID, in challenge: ChallengeID, outcome: String, minutesUsed: Int64, at now: Date,
        in tx: PostgresTransaction
    ) async throws -> Bool {
        let rows = try await tx.query(
            """
            WITH part AS (
                UPDATE gamification.challenge_participants SET state = \(outcome), updated_at = \(now)
                WHERE user_id = \(user) AND challenge_id = \(challenge) AND state = 'active' RETURNING user_id),
            numbered AS (
                UPDATE gamification.challenges SET last_result = last_result + 1
                WHERE id = \(challenge) AND EXISTS (SELECT FROM part) RETURNING last_result)
            INSERT INTO gamification.challenge_results
                (challenge_id, cursor, user_id, outcome, minutes_used, decided_at)
            SELECT \(challenge), last_result, \(user), \(outcome), \(minutesUsed), \(now) FROM numbered
            """)
        return rows.affectedRows == 1
    }

    /// The cursor of `challenge`'s newest result (0 for none).
    static func newestResult(of challenge: ChallengeID, on db: some StatementRunner) async throws -> Int64 {
        let rows = try await db.pureRead(
            "SELECT last_result FROM gamification.challenges WHERE id = \(challenge)")
        return try rows.first?.decode(Int64.self) ?? 0
    }

    /// Up to `limit` of `challenge`'s results after `cursor`, in the order they were decided.
    static func results(
        of challenge: ChallengeID, after cursor: Int64, limit: Int, on db: some StatementRunner
    )
        async throws -> [ChallengeResult]
    {
        let rows = try await db.pureRead(
            """
            SELECT cursor, user_id, outcome, minutes_used, decided_at FROM gamification.challenge_results
            WHERE challenge_id = \(challenge) AND cursor > \(cursor) ORDER BY cursor LIMIT \(limit)
            """)
        return try rows.map(ChallengeResult.init(row:))
    }

    /// `challenge`'s leaderboard from `offset`: completed first, then failed and forfeited, each fewest
    /// minutes first; and how many participants are undecided.
    static func leaderboard(of challenge: ChallengeID, offset: Int, limit: Int, on db: some StatementRunner)
        async throws -> (results: [ChallengeResult], active: Int64)
    {
        async let ranked = db.pureRead(
            """
            SELECT cursor, user_id, outcome, minutes_used, decided_at FROM gamification.challenge_results
            WHERE challenge_id = \(challenge)
            ORDER BY (outcome <> 'completed'), minutes_used, cursor
            OFFSET \(offset) LIMIT \(limit)
            """)
        async let active = db.pureRead(
            """
            SELECT count(*) FROM gamification.challenge_participants
            WHERE challenge_id = \(challenge) AND state = 'active'
            """)
        return (try await ranked.map(ChallengeResult.init(row:)), try await active[0].decode(Int64.self))
    }
}

/// A participant the sweep claimed: who, in what, and their days.
struct DueParticipant: Sendable, Equatable {
    let user: UserID
    let challenge: ChallengeID
    let firstDay: String
    let lastDay: String
}
