import KindredPostgres

extension GamificationMigrations {
    /// Learning points and reward apps: a guardian's setup per child (the row every change of the child's points
    /// locks first), which apps are learning or reward apps and from which local day, and the unlocks. Points
    /// earned are not stored: they are read from `usage_daily` (whole minutes per day and app), so a late or
    /// corrected upload counts as it is. Spent points are stored when an unlock ends.
    static let v12CreateRewards = Migration(
        version: 12, name: "create_rewards",
        sql: """
            CREATE TABLE gamification.reward_settings (
                child_id uuid PRIMARY KEY,
                points_per_learning_minute integer NOT NULL CHECK (points_per_learning_minute > 0),
                points_per_reward_minute integer NOT NULL CHECK (points_per_reward_minute > 0),
                updated_by uuid NOT NULL,
                updated_at timestamptz NOT NULL
            );

            -- kind: RewardAppKind's number (1 learning, 2 reward); since_day: the child's local day it became so.
            CREATE TABLE gamification.reward_apps (
                child_id uuid NOT NULL REFERENCES gamification.reward_settings ON DELETE CASCADE,
                app_id text NOT NULL,
                kind smallint NOT NULL CHECK (kind IN (1, 2)),
                since_day date NOT NULL,
                PRIMARY KEY (child_id, app_id)
            );

            -- An unlock is running while locked_at is null and ends_at is ahead; points_spent is set when it ends.
            CREATE TABLE gamification.reward_unlocks (
                unlock_id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
                child_id uuid NOT NULL REFERENCES gamification.reward_settings ON DELETE CASCADE,
                app_id text NOT NULL,
                unlocked_at timestamptz NOT NULL,
                ends_at timestamptz NOT NULL,
                points_per_minute integer NOT NULL,
                points_reserved bigint NOT NULL CHECK (points_reserved >= 0),
                locked_at timestamptz,
                points_spent bigint CHECK (points_spent >= 0),
                CHECK ((locked_at IS NULL) = (points_spent IS NULL))
            );
            CREATE INDEX reward_unlocks_by_child ON gamification.reward_unlocks (child_id, app_id);
            CREATE UNIQUE INDEX reward_unlocks_unsettled ON gamification.reward_unlocks (child_id, app_id)
                WHERE locked_at IS NULL;

            -- What an unlock of [from_time, until_time) costs: each started minute of the app's sessions inside it,
            -- at most what it reserved. Sessions last at most 24 hours, which bounds the index range read.
            CREATE FUNCTION gamification.reward_points_used(
                child uuid, app text, from_time timestamptz, until_time timestamptz, per_minute integer,
                reserved bigint
            ) RETURNS bigint LANGUAGE sql STABLE AS $$
                SELECT least(reserved, per_minute * ceil(coalesce(sum(extract(epoch FROM
                    least(s.ended_at, until_time) - greatest(s.started_at, from_time))), 0) / 60)::bigint)
                FROM gamification.usage_sessions s
                WHERE s.user_id = child AND s.app_id = app
                    AND s.started_at >= from_time - interval '24 hours' AND s.started_at < until_time
                    AND s.ended_at > from_time
            $$;
            """)
}
