import FoundationEssentials
import KindredHandlers
import KindredMessages
import KindredPostgres

/// `gamification.coin_balances`, `coin_ledger` and the balance histograms. Every change of a user's coins
/// runs in one transaction that first locks the user's balance row, so changes of one user take turns (a
/// deduction sees the balance the one before it left) while different users never wait for each other except
/// on the histogram rows of the balances they move between, locked in ascending order.
enum CoinStore {
    /// Puts `user` in the ranking with 0 coins if they are not there yet.
    static func enroll(_ user: UserID, in tx: PostgresTransaction) async throws {
        let added = try await tx.query(
            """
            INSERT INTO gamification.coin_balances (user_id, coins) VALUES (\(user), 0)
            ON CONFLICT (user_id) DO NOTHING
            """)
        if added.affectedRows == 1 { try await move(from: nil, to: 0, in: tx) }
    }

    /// Adds `requested` coins (negative: deducts) to `user`'s balance under `key`, at most down to zero, and
    /// records in the ledger what it actually changed. Nil when an entry with `key` is there already: the same
    /// change, processed before.
    static func apply(
        _ requested: Int64, to user: UserID, key: String, reason: String, challenge: ChallengeID?,
        at now: Date, in tx: PostgresTransaction
    ) async throws -> (amount: Int64, balance: Int64)? {
        try await enroll(user, in: tx)
        let held = try await tx.query(
            "SELECT coins FROM gamification.coin_balances WHERE user_id = \(user) FOR UPDATE")
        let before = try held[0].decode(Int64.self)
        let amount = max(requested, -before)
        let recorded = try await tx.query(
            """
            INSERT INTO gamification.coin_ledger
                (user_id, idempotency_key, amount, requested, reason, challenge_id, created_at)
            VALUES (\(user), \(key), \(amount), \(requested), \(reason), \(challenge), \(now))
            ON CONFLICT (user_id, idempotency_key) DO NOTHING
            """)
        guard recorded.affectedRows == 1 else { return nil }
        if amount != 0 {
            try await tx.query(
                "UPDATE gamification.coin_balances SET coins = \(before + amount) WHERE user_id = \(user)")
            try await move(from: before, to: before + amount, in: tx)
        }
        return (amount, before + amount)
    }

    /// Moves one user in the histograms from balance `old` (nil: a newcomer) to `new`, rows in ascending order.
    private static func move(from old: Int64?, to new: Int64, in tx: PostgresTransaction) async throws {
        let coins = PostgresArray([old, new].compactMap { $0 })
        let changes = PostgresArray(old == nil ? [Int64(1)] : [-1, 1])
        try await tx.query(
            """
            WITH change AS (SELECT * FROM unnest(\(coins)::bigint[], \(changes)::bigint[]) AS c(coins, users)),
            exact AS (
                INSERT INTO gamification.coin_histogram AS h (coins, users)
                SELECT coins, sum(users) FROM change GROUP BY coins HAVING sum(users) <> 0 ORDER BY coins
                ON CONFLICT (coins) DO UPDATE SET users = h.users + excluded.users)
            INSERT INTO gamification.coin_histogram_buckets AS b (bucket, users)
            SELECT coins >> 10, sum(users) FROM change GROUP BY coins >> 10 HAVING sum(users) <> 0
            ORDER BY coins >> 10
            ON CONFLICT (bucket) DO UPDATE SET users = b.users + excluded.users
            """)
    }

    /// `user`'s balance; nil when they never took part in a challenge.
    static func balance(of user: UserID, on db: some StatementRunner) async throws -> Int64? {
        let rows = try await db.pureRead(
            "SELECT coins FROM gamification.coin_balances WHERE user_id = \(user)")
        return try rows.first?.decode(Int64.self)
    }

    /// Removes `user` from the balances and the histograms, with their ledger.
    static func delete(_ user: UserID, in tx: PostgresTransaction) async throws {
        let removed = try await tx.query(
            "DELETE FROM gamification.coin_balances WHERE user_id = \(user) RETURNING coins")
        if let coins = try removed.first?.decode(Int64.self) {
            try await tx.query(
                """
                WITH exact AS (
                    UPDATE gamification.coin_histogram SET users = users - 1 WHERE coins = \(coins))
                UPDATE gamification.coin_histogram_buckets SET users = users - 1 WHERE bucket = \(coins) >> 10
                """)
        }
        try await tx.query("DELETE FROM gamification.coin_ledger WHERE user_id = \(user)")
    }
}
