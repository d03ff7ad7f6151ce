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
    ///
    /// A session's start is sealed, so SQL narrows by the UTC day it started on and the exact order is made
    /// here: the rows read are every session from the day of the page's first possible start to the day of the
    /// `page.size + 1`-th session on a later day (or the range's end), which holds the page whatever the order
    /// within a day, and costs at most the sessions of one day more than the page.
    static func sessions(
        of user: UserID, _ page: UsageSessionPage, sealing: UsageSessions, on db: some StatementRunner
    ) async throws -> [UsageBatch.Session] {
        let first = [page.from, page.after?.start].compactMap { $0 }.max()
        let rows = try await db.pureRead(
            """
            WITH bounds AS (
                SELECT coalesce((\(first)::timestamptz AT TIME ZONE 'UTC')::date, '-infinity') AS first_day,
                    coalesce((\(page.until)::timestamptz AT TIME ZONE 'UTC')::date, 'infinity') AS last_day),
            page_end AS (
                SELECT coalesce((
                    SELECT s.started_on FROM gamification.usage_sessions s, bounds
                    WHERE s.user_id = \(user)::uuid AND s.started_on > bounds.first_day
                        AND s.started_on <= bounds.last_day
                    ORDER BY s.started_on OFFSET \(page.size) LIMIT 1), bounds.last_day) AS day
                FROM bounds)
            SELECT s.client_session_id, s.app_id, s.started_at, s.ended_at, s.updated_at, s.session_sealed
            FROM gamification.usage_sessions s, bounds, page_end
            WHERE s.user_id = \(user)::uuid AND s.started_on >= bounds.first_day AND s.started_on <= page_end.day
            """)
        // Compared to the microsecond, as the plaintext columns were: a page token's instant is the same
        // microsecond as the session it names, not always the same Double.
        let micro = UsageSessions.microseconds
        let from = page.from.map(micro) ?? .min
        let until = page.until.map(micro) ?? .max
        let after = page.after.map { (micro($0.start), $0.clientSessionID) }
        return try rows.map { try sealing.open(try storedSession($0), of: user) }
            .filter { session in
                let start = micro(session.start)
                guard start >= from, start < until else { return false }
                return after.map { (start, session.clientSessionID) > $0 } ?? true
            }
            .sorted { ($0.start, $0.clientSessionID) < ($1.start, $1.clientSessionID) }
            .prefix(page.size + 1).map { $0 }
    }
}
