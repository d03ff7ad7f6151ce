import KindredHandlers
import KindredMessages
import KindredPostgres

/// The global ranking by coins, read without counting the users: a position is 1 + how many hold more coins,
/// summed from the histograms (`gamification.users_above`, migration 7: at most 31 exact rows, 31 small
/// buckets and one large bucket per 1,024 coins above); the page around a user is two short index scans of
/// `coin_balances (standing, user_id)` on either side of them.
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

    /// `user` and up to `above` users ranked right before them and `below` right after, best first, and how
    /// many users are ranked; nil when `user` is not ranked.
    ///
    /// One histogram sum per page: the entries are consecutive in the ranking, so no one holds a balance
    /// between two balances of the page, and each balance's position is the one above it plus the users holding
    /// that one (`coin_histogram`).
    static func page(around user: UserID, above: Int, below: Int, on db: some StatementRunner) async throws
        -> (user: Entry, entries: [Entry], ranked: Int64)?
    {
        let rows = try await db.pureRead(
            """
            WITH me AS (SELECT standing FROM gamification.coin_balances WHERE user_id = \(user)),
            around AS (
                -- The bound as a scalar subquery: a parameter the index scan starts from (a join would filter).
                (SELECT b.user_id, b.coins FROM gamification.coin_balances b
                 WHERE (b.standing, b.user_id) < ((SELECT standing FROM me), \(user))
                 ORDER BY b.standing DESC, b.user_id DESC LIMIT \(above))
                UNION ALL
                (SELECT b.user_id, b.coins FROM gamification.coin_balances b
                 WHERE (b.standing, b.user_id) >= ((SELECT standing FROM me), \(user))
                 ORDER BY b.standing, b.user_id LIMIT \(below + 1))),
            balances AS (
                SELECT h.coins, h.users FROM gamification.coin_histogram h
                WHERE h.coins IN (SELECT coins FROM around)),
            positions AS (
                SELECT coins, 1 + gamification.users_above((SELECT max(coins) FROM around))
                    + COALESCE(sum(users) OVER (ORDER BY coins DESC ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING), 0)
                    AS position
                FROM balances)
            SELECT a.user_id, a.coins, p.position::bigint,
                (SELECT COALESCE(sum(users), 0) FROM gamification.coin_histogram_buckets WHERE level = 2)::bigint
            FROM around a JOIN positions p USING (coins)
            ORDER BY a.coins DESC, a.user_id
            """)
        var ranked: Int64 = 0
        let entries = try rows.map { row in
            let (id, coins, position, total) = try row.decode((UserID, Int64, Int64, Int64).self)
            ranked = total
            return Entry(userID: id, coins: coins, position: position)
        }
        guard let entry = entries.first(where: { $0.userID == user }) else { return nil }
        return (entry, entries, ranked)
    }
}
