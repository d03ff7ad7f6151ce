import FoundationEssentials
import KindredHandlers
import KindredPostgres

/// A friend leaderboard's figures from `gamification.usage_daily`.
enum LeaderboardStore {
    struct Row: Sendable, Equatable {
        let userID: UserID
        let seconds: Int64
        let place: Int
    }

    /// The board of `app` over `period` of `me`'s calendar (today by `now` in `me`'s zone): `me`, and each of
    /// `friends` who tracks usage (has settings) and does not hide `app`, ranked by whole minutes, least first;
    /// equal minutes share a place. Each person's days are their own local dates, on the caller's dates. One
    /// statement: per person, one range of `usage_daily_by_app` (user, app, the period's dates: at most 31 rows,
    /// read from the index alone). The sum is a LATERAL subquery so that the dates are an index condition; as a
    /// join condition the planner left them a filter over all of the app's days. The zone is materialized: inlined
    /// into `usage_period`, the caller's settings row was read once for each end of the period.
    static func board(
        of appID: String, over period: UsagePeriodRequest, for me: UserID, friends: [UserID], now: Date,
        on db: some StatementRunner
    ) async throws -> (firstDay: String, lastDay: String, rows: [Row]) {
        let rows = try await db.pureRead(
            """
            WITH zone AS MATERIALIZED (
                SELECT coalesce((SELECT time_zone FROM gamification.usage_settings WHERE user_id = \(me)::uuid),
                    'UTC') AS name),
            period AS (
                SELECT p.first_day, p.last_day FROM zone, gamification.usage_period(\(period.unit),
                    (\(now)::timestamptz AT TIME ZONE zone.name)::date) p),
            board AS (
                SELECT s.user_id FROM gamification.usage_settings s
                WHERE s.user_id = ANY(\(PostgresArray(friends))::uuid[]) AND NOT \(appID)::text = ANY(s.hidden_apps)
                UNION SELECT \(me)::uuid),
            totals AS (
                SELECT b.user_id, t.seconds FROM board b CROSS JOIN period CROSS JOIN LATERAL (
                    SELECT coalesce(sum(d.seconds), 0)::bigint AS seconds FROM gamification.usage_daily d
                    WHERE d.user_id = b.user_id AND d.app_id = \(appID)::text
                        AND d.local_date BETWEEN period.first_day AND period.last_day) t)
            SELECT period.first_day::text, period.last_day::text, t.user_id::text, t.seconds,
                rank() OVER (ORDER BY t.seconds / 60)::bigint
            FROM totals t, period ORDER BY 5, t.user_id
            """)
        let decoded = try rows.decode((String, String, UserID, Int64, Int).self)
        return (
            decoded[0].0, decoded[0].1,
            decoded.map { Row(userID: $0.2, seconds: $0.3, place: $0.4) }
        )
    }
}
