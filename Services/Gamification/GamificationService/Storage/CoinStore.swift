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

    /// The bucket levels of `coin_histogram_buckets` and how many bits of a balance each drops (migration 7).
    static let bucketLevels: [(level: Int, shift: Int64)] = [(1, 5), (2, 10)]

    /// Moves one user in the histograms from balance `old` (nil: a newcomer) to `new`: the exact rows, then each
    /// level's buckets, each in ascending order, so that concurrent moves lock rows in one order.
    private static func move(from old: Int64?, to new: Int64, in tx: PostgresTransaction) async throws {
        let changes = [(new, Int64(1))] + (old.map { [($0, Int64(-1))] } ?? [])
        for (coins, change) in changes.sorted(by: { $0.0 < $1.0 }) {
            try await adjust(coins, by: change, in: tx)
        }
        for (level, shift) in bucketLevels {
            let buckets = Dictionary(changes.map { ($0.0 >> shift, $0.1) }, uniquingKeysWith: +)
            for (bucket, change) in buckets.sorted(by: { $0.key < $1.key }) where change != 0 {
                try await adjust(bucket, by: change, level: level, in: tx)
            }
        }
    }

    /// Adds `change` to the users counted at balance `key` (or at bucket `key` of `level`). A decrement updates
    /// the row it must find there; an increment may create it (a CHECK on the row to insert would refuse a
    /// negative count before the conflict is seen).
    private static func adjust(_ key: Int64, by change: Int64, level: Int? = nil, in tx: PostgresTransaction)
        async throws
    {
        switch (level, change > 0) {
        case (nil, true):
            try await tx.query(
                """
                INSERT INTO gamification.coin_histogram AS h (coins, users) VALUES (\(key), \(change))
                ON CONFLICT (coins) DO UPDATE SET users = h.users + excluded.users
                """)
        case (nil, false):
            try await tx.query(
                "UPDATE gamification.coin_histogram SET users = users + \(change) WHERE coins = \(key)")
        case (let level?, true):
            try await tx.query(
                """
                INSERT INTO gamification.coin_histogram_buckets AS h (level, bucket, users)
                VALUES (\(level), \(key), \(change))
                ON CONFLICT (level, bucket) DO UPDATE SET users = h.users + excluded.users
                """)
        case (let level?, false):
            try await tx.query(
                """
                UPDATE gamification.coin_histogram_buckets SET users = users + \(change)
                WHERE level = \(level) AND bucket = \(key)
                """)
        }
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
            try await adjust(coins, by: -1, in: tx)
            for (level, shift) in bucketLevels {
                try await adjust(coins >> shift, by: -1, level: level, in: tx)
            }
        }
        try await tx.query("DELETE FROM gamification.coin_ledger WHERE user_id = \(user)")
    }
}
