import FoundationEssentials
import KindredHandlers
import KindredMessages
import KindredPostgres

/// The reads of lists: a user's challenges by state, the popular challenges, and what a device enforces now.
extension ChallengeStore {
    /// Up to `limit` of `user`'s challenges in `states`, the most recently changed first, after `after`.
    static func list(
        of user: UserID, states: [String], after: ChallengePage.Position?, limit: Int,
        on db: some StatementRunner
    ) async throws -> [StoredChallenge] {
        let (at, id) = (
            after?.at ?? .distantFuture, after?.id.description ?? "ffffffff-ffff-ffff-ffff-ffffffffffff"
        )
        var query = PostgresQuery(unsafeSQL: "SELECT \(StoredChallenge.columns) ")
        query.append(unsafeSQL: "FROM gamification.challenge_participants p ")
        query.append(unsafeSQL: "JOIN gamification.challenges c ON c.id = p.challenge_id WHERE p.user_id = ")
        query.append(bind: user)
        query.append(unsafeSQL: " AND p.state = ANY(")
        query.append(bind: PostgresArray(states))
        query.append(unsafeSQL: "::text[]) AND (p.updated_at, p.challenge_id) < (")
        query.append(bind: at)
        query.append(unsafeSQL: ", ")
        query.append(bind: id)
        query.append(unsafeSQL: "::uuid) ORDER BY p.updated_at DESC, p.challenge_id DESC LIMIT ")
        query.append(bind: limit)
        return try await db.pureRead(query).map(StoredChallenge.init(row:))
    }

    /// Up to `limit` popular challenges, the newest first, after `after`, with `user`'s part in each.
    static func popular(
        for user: UserID, after: ChallengePage.Position?, limit: Int, on db: some StatementRunner
    ) async throws -> [StoredChallenge] {
        let (at, id) = (
            after?.at ?? .distantFuture, after?.id.description ?? "ffffffff-ffff-ffff-ffff-ffffffffffff"
        )
        var query = PostgresQuery(
            unsafeSQL: "SELECT \(StoredChallenge.columns) FROM gamification.challenges c ")
        query.append(unsafeSQL: "LEFT JOIN gamification.challenge_participants p ")
        query.append(unsafeSQL: "ON p.challenge_id = c.id AND p.user_id = ")
        query.append(bind: user)
        query.append(unsafeSQL: " WHERE c.popular AND (c.created_at, c.id) < (")
        query.append(bind: at)
        query.append(unsafeSQL: ", ")
        query.append(bind: id)
        query.append(unsafeSQL: "::uuid) ORDER BY c.created_at DESC, c.id DESC LIMIT ")
        query.append(bind: limit)
        return try await db.pureRead(query).map(StoredChallenge.init(row:))
    }

    /// What `user` must keep to today (in their time zone, at `now`): each challenge whose days include today,
    /// with the app's minutes so far today.
    static func restrictions(of user: UserID, at now: Date, on db: some StatementRunner) async throws
        -> [Restriction]
    {
        let rows = try await db.pureRead(
            """
            WITH zone AS (
                SELECT COALESCE((SELECT time_zone FROM gamification.usage_settings WHERE user_id = \(user)), 'UTC')
                    AS tz),
            today AS (SELECT (\(now)::timestamptz AT TIME ZONE tz)::date AS day, tz FROM zone)
            SELECT c.id, c.name, c.app_id, c.daily_limit_minutes, COALESCE(d.seconds, 0), p.ends_at,
                (today.day + 1)::timestamp AT TIME ZONE today.tz
            FROM today
            JOIN gamification.challenge_participants p ON p.user_id = \(user) AND p.state = 'active'
                AND today.day BETWEEN p.first_day AND p.last_day
            JOIN gamification.challenges c ON c.id = p.challenge_id
            LEFT JOIN gamification.usage_daily d
                ON d.user_id = \(user) AND d.local_date = today.day AND d.app_id = c.app_id
            ORDER BY p.ends_at, c.id
            """)
        return try rows.map { row in
            let (id, name, app, limit, seconds, endsAt, dayEndsAt) = try row.decode(
                (ChallengeID, String, String, Int, Int, Date, Date).self)
            return Restriction(
                challengeID: id, name: name, appID: app, dailyLimitMinutes: limit, secondsUsedToday: seconds,
                challengeEndsAt: endsAt, dayEndsAt: dayEndsAt)
        }
    }
}
