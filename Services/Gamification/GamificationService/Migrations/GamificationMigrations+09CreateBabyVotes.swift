import KindredPostgres

extension GamificationMigrations {
    /// Baby-profile votes, secret until the reveal. `baby_games` has a row per profile once anyone votes or the
    /// arrival is announced: a vote and the reveal both lock it, so no vote lands after the results are out.
    /// `name_key` folds case, accents and spacing so that "Zoë Anne" and "zoeanne" are one name (the
    /// suggestions use the same function).
    static let v9CreateBabyVotes = Migration(
        version: 9, name: "create_baby_votes",
        sql: """
            CREATE FUNCTION gamification.name_key(name text) RETURNS text
                LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
                RETURN regexp_replace(lower(normalize(name, NFD)), '[[:space:]\\u0300-\\u036f]', '', 'g');

            CREATE TABLE gamification.baby_games (
                profile_id uuid PRIMARY KEY,
                -- Set by baby.arrived: the votes are closed and revealed.
                revealed_at timestamptz,
                birth_date date,
                baby_name text NOT NULL DEFAULT '',
                baby_gender smallint NOT NULL DEFAULT 0,
                announced_at timestamptz
            );

            -- category: 1 birth date, 2 gender, 3 name; one vote per person per category per profile.
            CREATE TABLE gamification.baby_votes (
                profile_id uuid NOT NULL,
                category smallint NOT NULL CHECK (category BETWEEN 1 AND 3),
                user_id uuid NOT NULL,
                birth_date date,
                gender smallint,
                name text,
                name_key text,
                cast_at timestamptz NOT NULL,
                PRIMARY KEY (profile_id, category, user_id),
                CHECK ((category = 1) = (birth_date IS NOT NULL)),
                CHECK ((category = 2) = (gender IS NOT NULL)),
                CHECK ((category = 3) = (name IS NOT NULL AND name_key IS NOT NULL))
            );
            CREATE INDEX baby_votes_by_user ON gamification.baby_votes (user_id);
            """)
}
