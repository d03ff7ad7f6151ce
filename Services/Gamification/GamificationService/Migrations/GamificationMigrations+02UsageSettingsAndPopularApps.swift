import KindredPostgres

extension GamificationMigrations {
    /// What usage needs beyond migration 1: the zone each stored session was counted in (so a newer version
    /// takes back exactly what the old one added, even after the user changed zone), an index of each user's
    /// days by app, the app whose friend
    /// leaderboard place the navigation bar shows, the calendar periods, and the popular apps an admin keeps,
    /// seeded with the five the product starts with.
    static let v2UsageSettingsAndPopularApps = Migration(
        version: 2, name: "usage_settings_and_popular_apps",
        sql: """
            ALTER TABLE gamification.usage_sessions ADD COLUMN time_zone text NOT NULL DEFAULT 'UTC';
            ALTER TABLE gamification.usage_settings ADD COLUMN standing_app_id text NOT NULL DEFAULT '';

            -- One app's days of one user, read from the index alone: a leaderboard (a range per friend) and a
            -- challenge's daily limit. A 500-friend week touched 1,222 buffers with it, 1,627 without.
            CREATE INDEX usage_daily_by_app ON gamification.usage_daily (user_id, app_id, local_date)
                INCLUDE (seconds);

            -- The day, week (Monday to Sunday) or month holding `day`: unit is 'day', 'week' or 'month'.
            CREATE FUNCTION gamification.usage_period(unit text, day date)
            RETURNS TABLE (first_day date, last_day date) LANGUAGE sql IMMUTABLE AS $$
                SELECT date_trunc(unit, day::timestamp)::date,
                    (date_trunc(unit, day::timestamp) + ('1 ' || unit)::interval - interval '1 day')::date
            $$;

            -- The apps the product suggests, in the order shown; SetPopularApps replaces them all.
            CREATE TABLE gamification.popular_apps (
                position integer PRIMARY KEY,
                app_id text NOT NULL UNIQUE,
                name text NOT NULL
            );
            INSERT INTO gamification.popular_apps (position, app_id, name) VALUES
                (1, 'instagram', 'Instagram'), (2, 'whatsapp', 'WhatsApp'), (3, 'youtube', 'YouTube'),
                (4, 'tiktok', 'TikTok'), (5, 'facebook', 'Facebook');
            """)
}
