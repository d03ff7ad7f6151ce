import KindredPostgres

extension GamificationMigrations {
    /// What an upload reads instead of the sessions around it (issue 27): per user and UTC day, the sealed counts
    /// of the time each app on each device is covered by the stored sessions (`UsageDayCounts`, sealed like the
    /// sessions and bound to the user and the day; the day is no more than `usage_sessions.started_on` shows).
    /// The sessions already stored are sealed, so SQL cannot count them: it lists the days they touch (the UTC day
    /// each started and the next, as none lasts over 24 hours) as pending, and the first upload that touches a
    /// pending day builds its counts from that day's sessions, once, in its own transaction. A day no upload
    /// touches again never needs its counts, so no pass over the whole history runs at startup.
    static let v20UsageCoverage = Migration(
        version: 20, name: "usage_coverage",
        sql: """
            CREATE TABLE gamification.usage_coverage (
                user_id uuid NOT NULL,
                utc_day date NOT NULL,
                coverage_sealed bytea NOT NULL,
                PRIMARY KEY (user_id, utc_day)
            );
            -- Sealed values do not compress; kept in the row up to a page (a day of ~800 separate stretches of
            -- use), an upload rewrites one heap tuple instead of a TOAST chunk per 2 KB.
            ALTER TABLE gamification.usage_coverage ALTER COLUMN coverage_sealed SET STORAGE MAIN;
            CREATE TABLE gamification.usage_coverage_pending (
                user_id uuid NOT NULL,
                utc_day date NOT NULL,
                PRIMARY KEY (user_id, utc_day)
            );
            \(usageCoveragePending)
            """)

    /// Every UTC day a stored session touches, and has no counts yet, listed as pending.
    static let usageCoveragePending = """
        INSERT INTO gamification.usage_coverage_pending (user_id, utc_day)
        SELECT DISTINCT s.user_id, s.started_on + later.days
        FROM gamification.usage_sessions s, (VALUES (0), (1)) AS later (days)
        WHERE NOT EXISTS (
            SELECT 1 FROM gamification.usage_coverage c
            WHERE c.user_id = s.user_id AND c.utc_day = s.started_on + later.days)
        ON CONFLICT DO NOTHING;
        """
}
