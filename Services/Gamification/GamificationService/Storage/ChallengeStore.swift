import FoundationEssentials
import KindredHandlers
import KindredMessages
import KindredPostgres

/// `gamification.challenges` and `challenge_participants`: creating, inviting, answering and joining here;
/// the lists in `ChallengeStore+Lists.swift`, the sweep's claims and results in `ChallengeStore+Results.swift`.
enum ChallengeStore {
    /// Writes `challenge` (its `part` ignored) unless its creator used `requestID` before; answers the id of
    /// the challenge stored under that request_id (this one, or the earlier one).
    static func insert(
        _ challenge: StoredChallenge, requestID: String, at now: Date, in tx: PostgresTransaction
    ) async throws -> ChallengeID {
        let c = challenge
        let rows = try await tx.query(
            """
            WITH added AS (
                INSERT INTO gamification.challenges (id, creator_id, request_id, name, app_id,
                    daily_limit_minutes, duration_days, difficulty, coin_award, popular, created_at)
                VALUES (\(c.id), \(c.creatorID), \(requestID), \(c.name), \(c.appID), \(c.dailyLimitMinutes),
                    \(c.durationDays), \(c.difficulty), \(c.coinAward), \(c.popular), \(now))
                ON CONFLICT (creator_id, request_id) DO NOTHING RETURNING id)
            SELECT id FROM added
            UNION ALL
            SELECT id FROM gamification.challenges
            WHERE creator_id = \(c.creatorID) AND request_id = \(requestID) AND NOT EXISTS (SELECT FROM added)
            """)
        return try rows[0].decode(ChallengeID.self)
    }

    /// Makes `user` take part in `challenge` from their next local midnight, for its days (a new part, or an
    /// invitation accepted). False when their part was there already in another state than invited.
    static func activate(
        _ user: UserID, in challenge: ChallengeID, at now: Date, in tx: PostgresTransaction
    ) async throws -> Bool {
        let rows = try await tx.query(
            """
            WITH zone AS (
                SELECT COALESCE((SELECT time_zone FROM gamification.usage_settings WHERE user_id = \(user)), 'UTC')
                    AS tz),
            days AS (
                SELECT (\(now)::timestamptz AT TIME ZONE zone.tz)::date + 1 AS first_day, c.duration_days, zone.tz
                FROM zone, gamification.challenges c WHERE c.id = \(challenge))
            INSERT INTO gamification.challenge_participants AS p
                (user_id, challenge_id, state, first_day, last_day, ends_at, updated_at)
            SELECT \(user), \(challenge), 'active', first_day, first_day + duration_days - 1,
                (first_day + duration_days)::timestamp AT TIME ZONE tz, \(now)
            FROM days
            ON CONFLICT (user_id, challenge_id) DO UPDATE
            SET state = 'active', first_day = excluded.first_day, last_day = excluded.last_day,
                ends_at = excluded.ends_at, updated_at = excluded.updated_at
            WHERE p.state = 'invited'
            """)
        return rows.affectedRows == 1
    }

    /// Invites `user` to `challenge` on behalf of `inviter`; nothing when they have a part in it already.
    static func invite(
        _ user: UserID, to challenge: ChallengeID, by inviter: UserID, at now: Date,
        on db: some StatementRunner
    ) async throws {
        try await db.query(
            """
            INSERT INTO gamification.challenge_participants (user_id, challenge_id, state, invited_by, updated_at)
            VALUES (\(user), \(challenge), 'invited', \(inviter), \(now))
            ON CONFLICT (user_id, challenge_id) DO NOTHING
            """)
    }

    /// Declines `user`'s invitation to `challenge`; false when it was not waiting for an answer.
    static func decline(_ user: UserID, _ challenge: ChallengeID, at now: Date, on db: some StatementRunner)
        async throws -> Bool
    {
        let rows = try await db.query(
            """
            UPDATE gamification.challenge_participants SET state = 'declined', updated_at = \(now)
            WHERE user_id = \(user) AND challenge_id = \(challenge) AND state = 'invited'
            """)
        return rows.affectedRows == 1
    }

    /// `challenge` as `user` sees it, with their part; nil when there is no such challenge. With `lock`, only
    /// with a part, which stays locked until the transaction ends (nil without one).
    static func challenge(
        _ challenge: ChallengeID, for user: UserID, lock: Bool = false, on db: some StatementRunner
    ) async throws -> StoredChallenge? {
        var query = PostgresQuery(
            unsafeSQL: "SELECT \(StoredChallenge.columns) FROM gamification.challenges c ")
        // A part to lock must be there: the outer join's nullable side cannot be locked.
        query.append(unsafeSQL: lock ? "JOIN " : "LEFT JOIN ")
        query.append(
            unsafeSQL: "gamification.challenge_participants p ON p.challenge_id = c.id AND p.user_id = ")
        query.append(bind: user)
        query.append(unsafeSQL: " WHERE c.id = ")
        query.append(bind: challenge)
        if lock { query.append(unsafeSQL: " FOR UPDATE OF p") }
        let rows = lock ? try await db.query(query) : try await db.pureRead(query)
        return try rows.first.map(StoredChallenge.init(row:))
    }
}
