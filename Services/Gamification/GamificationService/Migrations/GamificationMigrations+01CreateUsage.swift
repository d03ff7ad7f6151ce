import KindredPostgres

extension GamificationMigrations {
    /// App usage: the sessions devices upload, and the per-day totals kept current as they arrive, so that a
    /// summary or a leaderboard reads days, never sessions.
    static let v1CreateUsage = Migration(
        version: 1, name: "create_usage",
        sql: """
            -- One row per session a device uploaded, named by the device's own id for it: uploading it again
            -- replaces it only when its updated_at is newer.
            CREATE TABLE gamification.usage_sessions (
                user_id uuid NOT NULL,
                client_session_id text NOT NULL,
                app_id text NOT NULL,
                started_at timestamptz NOT NULL,
                ended_at timestamptz NOT NULL,
                updated_at timestamptz NOT NULL,
                PRIMARY KEY (user_id, client_session_id)
            );
            CREATE INDEX usage_sessions_by_start ON gamification.usage_sessions (user_id, started_at);

            -- Seconds per user, app and day in the user's time zone (sessions across midnight split).
            CREATE TABLE gamification.usage_daily (
                user_id uuid NOT NULL,
                local_date date NOT NULL,
                app_id text NOT NULL,
                seconds integer NOT NULL CHECK (seconds >= 0),
                PRIMARY KEY (user_id, local_date, app_id)
            );

            -- A user's time zone (an IANA name) and the apps hidden from friends' leaderboards.
            CREATE TABLE gamification.usage_settings (
                user_id uuid PRIMARY KEY,
                time_zone text NOT NULL DEFAULT 'UTC',
                hidden_apps text[] NOT NULL DEFAULT '{}'
            );
            """)
}
