import KindredPostgres

extension GamificationMigrations {
    /// Usage sessions sealed at rest (`UsageSessions`: the app, start, end and updated_at sealed together under
    /// gamification's data keys, bound to the row): new and replaced sessions store `session_sealed` only;
    /// sessions stored before keep their plaintext columns until `kindred-gamification keys rotate-data` seals
    /// them, and are read as they are meanwhile. Each row has exactly one of the two forms. `started_on`, the UTC
    /// day a session started, is what SQL still narrows a user's sessions by (a page of history, the sessions
    /// around a reward unlock); `usage_daily` already shows the days a user used each app. What an unlock spent is
    /// now counted from the opened sessions, so `reward_points_used` goes.
    static let v16SealUsageSessions = Migration(
        version: 16, name: "seal_usage_sessions",
        sql: """
            ALTER TABLE gamification.usage_sessions
                ADD COLUMN session_sealed bytea,
                ADD COLUMN started_on date,
                ALTER COLUMN app_id DROP NOT NULL,
                ALTER COLUMN started_at DROP NOT NULL,
                ALTER COLUMN ended_at DROP NOT NULL,
                ALTER COLUMN updated_at DROP NOT NULL,
                ADD CONSTRAINT usage_sessions_one_form CHECK (CASE WHEN session_sealed IS NULL
                    THEN num_nulls(app_id, started_at, ended_at, updated_at) = 0
                    ELSE num_nonnulls(app_id, started_at, ended_at, updated_at) = 0 END);
            UPDATE gamification.usage_sessions SET started_on = (started_at AT TIME ZONE 'UTC')::date;
            ALTER TABLE gamification.usage_sessions ALTER COLUMN started_on SET NOT NULL;
            DROP INDEX gamification.usage_sessions_by_start;
            CREATE INDEX usage_sessions_by_day ON gamification.usage_sessions (user_id, started_on);
            DROP FUNCTION gamification.reward_points_used(uuid, text, timestamptz, timestamptz, integer, bigint);
            """)
}
