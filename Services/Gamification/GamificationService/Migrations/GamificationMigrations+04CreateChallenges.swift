import KindredPostgres

extension GamificationMigrations {
    /// Challenges, who takes part in each (each participant on days of their own time zone), and the results
    /// the sweep decides, numbered per challenge for its leaderboard stream.
    static let v4CreateChallenges = Migration(
        version: 4, name: "create_challenges",
        sql: """
            -- A personal or friend challenge (creator_id set) or an admin's popular one (popular, fixed award).
            CREATE TABLE gamification.challenges (
                id uuid PRIMARY KEY,
                creator_id uuid,
                request_id text,
                name text NOT NULL,
                app_id text NOT NULL,
                daily_limit_minutes integer NOT NULL CHECK (daily_limit_minutes BETWEEN 0 AND 1440),
                duration_days integer NOT NULL CHECK (duration_days BETWEEN 1 AND 365),
                difficulty smallint NOT NULL CHECK (difficulty BETWEEN 1 AND 3),
                coin_award bigint NOT NULL CHECK (coin_award > 0),
                popular boolean NOT NULL DEFAULT false,
                -- The last result numbered for the leaderboard stream.
                last_result bigint NOT NULL DEFAULT 0,
                created_at timestamptz NOT NULL,
                UNIQUE (creator_id, request_id)
            );
            CREATE INDEX challenges_popular ON gamification.challenges (created_at, id) WHERE popular;

            -- One user's part in one challenge. first_day/last_day are dates in the user's time zone, ends_at
            -- the end of last_day there; the sweep decides an active row once ends_at plus the grace passed.
            CREATE TABLE gamification.challenge_participants (
                user_id uuid NOT NULL,
                challenge_id uuid NOT NULL REFERENCES gamification.challenges ON DELETE CASCADE,
                state text NOT NULL CHECK (state IN
                    ('invited', 'active', 'completed', 'failed', 'forfeited', 'declined')),
                invited_by uuid,
                first_day date,
                last_day date,
                ends_at timestamptz,
                updated_at timestamptz NOT NULL,
                PRIMARY KEY (user_id, challenge_id)
            );
            CREATE INDEX challenge_participants_by_list
                ON gamification.challenge_participants (user_id, state, updated_at, challenge_id);
            CREATE INDEX challenge_participants_due
                ON gamification.challenge_participants (ends_at) WHERE state = 'active';
            CREATE INDEX challenge_participants_by_challenge
                ON gamification.challenge_participants (challenge_id, state);

            -- Each decided participant, numbered per challenge (cursor): the leaderboard and its stream.
            CREATE TABLE gamification.challenge_results (
                challenge_id uuid NOT NULL REFERENCES gamification.challenges ON DELETE CASCADE,
                cursor bigint NOT NULL,
                user_id uuid NOT NULL,
                outcome text NOT NULL CHECK (outcome IN ('completed', 'failed', 'forfeited')),
                minutes_used bigint NOT NULL,
                decided_at timestamptz NOT NULL,
                PRIMARY KEY (challenge_id, cursor),
                UNIQUE (challenge_id, user_id)
            );
            CREATE INDEX challenge_results_board ON gamification.challenge_results
                (challenge_id, (outcome <> 'completed'), minutes_used, cursor);
            """)
}
