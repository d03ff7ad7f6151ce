import KindredPostgres

extension GamificationMigrations {
    /// Badges (one per completed challenge: the key makes a second processing of the same completion a no-op)
    /// and each user's achievements, numbered per user for their `WatchMyAchievements` stream.
    static let v6CreateBadges = Migration(
        version: 6, name: "create_badges",
        sql: """
            CREATE TABLE gamification.badges (
                user_id uuid NOT NULL,
                challenge_id uuid NOT NULL,
                kind text NOT NULL,
                challenge_name text NOT NULL,
                earned_at timestamptz NOT NULL,
                PRIMARY KEY (user_id, challenge_id)
            );
            CREATE INDEX badges_newest ON gamification.badges (user_id, earned_at, challenge_id);

            -- A serialized Achievement without its cursor.
            CREATE TABLE gamification.achievements (
                user_id uuid NOT NULL,
                cursor bigint NOT NULL,
                payload bytea NOT NULL,
                created_at timestamptz NOT NULL,
                PRIMARY KEY (user_id, cursor)
            );
            """)
}
