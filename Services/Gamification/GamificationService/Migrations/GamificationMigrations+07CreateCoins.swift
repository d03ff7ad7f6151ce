import KindredPostgres

extension GamificationMigrations {
    /// Coins: an append-only ledger with idempotency keys, each user's balance (never below zero, the row every
    /// change of it locks first), and how many users hold each balance, exactly and in buckets of 1,024 coins,
    /// so that a user's position is a sum over at most a bucket's rows and the buckets above, never a count
    /// over the users.
    static let v7CreateCoins = Migration(
        version: 7, name: "create_coins",
        sql: """
            CREATE TABLE gamification.coin_balances (
                user_id uuid PRIMARY KEY,
                coins bigint NOT NULL CHECK (coins >= 0),
                -- The ranking's order, best first: more coins, then the lower user id.
                standing bigint GENERATED ALWAYS AS (-coins) STORED,
                -- The last achievement numbered for the user's WatchMyAchievements stream.
                last_achievement bigint NOT NULL DEFAULT 0
            );
            CREATE INDEX coin_balances_standing ON gamification.coin_balances (standing, user_id);

            -- amount is what the entry actually changed (a deduction is at most the balance then);
            -- requested is what it asked for.
            CREATE TABLE gamification.coin_ledger (
                user_id uuid NOT NULL,
                entry bigint GENERATED ALWAYS AS IDENTITY,
                idempotency_key text NOT NULL,
                amount bigint NOT NULL,
                requested bigint NOT NULL,
                reason text NOT NULL,
                challenge_id uuid,
                created_at timestamptz NOT NULL,
                PRIMARY KEY (user_id, entry),
                UNIQUE (user_id, idempotency_key)
            );

            CREATE TABLE gamification.coin_histogram (
                coins bigint PRIMARY KEY,
                users bigint NOT NULL CHECK (users >= 0)
            );
            CREATE TABLE gamification.coin_histogram_buckets (
                bucket bigint PRIMARY KEY,
                users bigint NOT NULL CHECK (users >= 0)
            );

            -- How many ranked users hold more than `held` coins.
            CREATE FUNCTION gamification.users_above(held bigint) RETURNS bigint
            LANGUAGE sql STABLE PARALLEL SAFE AS $$
                SELECT COALESCE((SELECT sum(users) FROM gamification.coin_histogram_buckets
                                 WHERE bucket > held >> 10), 0)
                     + COALESCE((SELECT sum(users) FROM gamification.coin_histogram
                                 WHERE coins > held AND coins < ((held >> 10) + 1) << 10), 0)
            $$;
            """)
}
