import KindredPostgres

extension GamificationMigrations {
    /// Coins: an append-only ledger with idempotency keys, each user's balance (never below zero, the row every
    /// change of it locks first), and how many users hold each balance, exactly and in buckets of 32 and of 1,024
    /// coins, so that a user's position is a sum over at most 31 exact rows, 31 small buckets and the large
    /// buckets above (one per 1,024 coins of the best balance), never a count over the users.
    static let v5CreateCoins = Migration(
        version: 5, name: "create_coins",
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
            -- Level 1: users per 32 coins (bucket = coins >> 5); level 2: per 1,024 coins (coins >> 10).
            CREATE TABLE gamification.coin_histogram_buckets (
                level smallint NOT NULL CHECK (level IN (1, 2)),
                bucket bigint NOT NULL,
                users bigint NOT NULL CHECK (users >= 0),
                PRIMARY KEY (level, bucket)
            );

            """)
}
