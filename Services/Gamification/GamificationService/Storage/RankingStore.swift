import KindredHandlers
import KindredMessages
import KindredPostgres

/// The global ranking by coins, read without counting the users: a user's position is 1 + how many hold more
/// coins, summed from `gamification.coin_histogram_buckets` (one row per 1,024 coins of balance) and the at
/// most 1,024 exact rows of the user's own bucket (`gamification.users_above`, migration 7); the page around a
/// user is two short index scans of `coin_balances (standing, user_id)` on either side of them.
enum RankingStore {
    /// One ranked user: coins, and position (shared by equal balances).
    struct Entry: Sendable, Equatable {
        let userID: UserID
        let coins: Int64
        let position: Int64
    }

    /// `user`'s entry; nil when they are not ranked.
    static func entry(of user: UserID, on db: some StatementRunner) async throws -> Entry? {
        let rows = try await db.pureRead(
            """
            SELECT coins, 1 + gamification.users_above(coins) FROM gamification.coin_balances
            WHERE user_id = \(user)
            """)
        guard let row = rows.first else { return nil }
        let (coins, position) = try row.decode((Int64, Int64).self)
        return Entry(userID: user, coins: coins, position: position)
    }

    /// Up to `above` users ranked right before `entry` and up to `below` right after it, with `entry`, best
    /// first; and how many users are ranked.
    static func page(
        around entry: Entry, above: Int, below: Int, on db: some StatementRunner
    ) async throws -> (entries: [Entry], ranked: Int64) {
        let (standing, user) = (-entry.coins, entry.userID)
        let rows = try await db.pureRead(
            """
            WITH around AS (
                (SELECT user_id, coins FROM gamification.coin_balances
                 WHERE (standing, user_id) < (\(standing), \(user))
                 ORDER BY standing DESC, user_id DESC LIMIT \(above))
                UNION ALL
                (SELECT user_id, coins FROM gamification.coin_balances
                 WHERE (standing, user_id) >= (\(standing), \(user))
                 ORDER BY standing, user_id LIMIT \(below + 1))),
            positions AS (
                SELECT coins, 1 + gamification.users_above(coins) AS position
                FROM (SELECT DISTINCT coins FROM around) d)
            SELECT a.user_id, a.coins, p.position,
                (SELECT COALESCE(sum(users), 0) FROM gamification.coin_histogram_buckets)::bigint
            FROM around a JOIN positions p USING (coins)
            ORDER BY a.coins DESC, a.user_id
            """)
        var ranked: Int64 = 0
        let entries = try rows.map { row in
            let (id, coins, position, total) = try row.decode((UserID, Int64, Int64, Int64).self)
            ranked = total
            return Entry(userID: id, coins: coins, position: position)
        }
        return (entries, ranked)
    }
}
