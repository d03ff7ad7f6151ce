import FoundationEssentials
import KindredHandlers
import KindredPostgres

/// The reads of usage: a user's totals over a period, and their sessions a page at a time.
extension UsageStore {
    /// A period's first and last day, the zone they are in, and the seconds of each app used in it.
    struct Totals: Sendable {
        let firstDay: String
        let lastDay: String
        let timeZone: String
        /// Most used first, then by app id.
        let apps: [(appID: String, seconds: Int64)]
    }

    /// `user`'s totals over `period` of their own calendar (today by `now` in their zone when it names no
    /// day): at most 31 days of `usage_daily` rows, whatever the length of the history.
    static func totals(
        of user: UserID, over period: UsagePeriodRequest, now: Date, on db: some StatementRunner
    )
        async throws -> Totals
    {
        let rows = try await db.pureRead(
            """
            WITH zone AS (
                SELECT coalesce((SELECT time_zone FROM gamification.usage_settings WHERE user_id = \(user)::uuid),
                    'UTC') AS name),
            period AS (
                SELECT p.first_day, p.last_day, zone.name FROM zone, gamification.usage_period(\(period.unit),
                    coalesce(\(period.day)::date, (\(now)::timestamptz AT TIME ZONE zone.name)::date)) p),
            apps AS (
                SELECT d.app_id, sum(d.seconds)::bigint AS seconds
                FROM gamification.usage_daily d, period
                WHERE d.user_id = \(user)::uuid AND d.local_date BETWEEN period.first_day AND period.last_day
                GROUP BY d.app_id)
            SELECT period.first_day::text, period.last_day::text, period.name, apps.app_id, apps.seconds
            FROM period LEFT JOIN apps ON apps.seconds > 0
            ORDER BY apps.seconds DESC, apps.app_id
            """)
        let decoded = try rows.decode((String, String, String, String?, Int64?).self)
        let (first, last, zone, _, _) = decoded[0]
        let apps = decoded.compactMap { row in row.3.map { (appID: $0, seconds: row.4 ?? 0) } }
        return Totals(firstDay: first, lastDay: last, timeZone: zone, apps: apps)
    }

    /// Up to `page.size + 1` of `user`'s sessions in `page`'s range, oldest first, after `page.after`.
    static func sessions(of user: UserID, _ page: UsageSessionPage, on db: some StatementRunner) async throws
        -> [UsageBatch.Session]
    {
        let after = page.after
        return try await db.pureRead(
            """
            SELECT client_session_id, app_id, started_at, ended_at, updated_at FROM gamification.usage_sessions
            WHERE user_id = \(user)::uuid
              AND started_at >= coalesce(\(page.from)::timestamptz, '-infinity')
              AND started_at < coalesce(\(page.until)::timestamptz, 'infinity')
              AND (\(after?.start)::timestamptz IS NULL OR (started_at, client_session_id) > (\(after?.start)::timestamptz, \(after?.clientSessionID)::text))
            ORDER BY started_at, client_session_id LIMIT \(page.size + 1)
            """
        ).map { row in
            let (id, app, start, end, updated) = try row.decode((String, String, Date, Date, Date).self)
            return UsageBatch.Session(
                clientSessionID: id, appID: app, start: start, end: end, updatedAt: updated)
        }
    }
}
