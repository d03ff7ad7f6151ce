import KindredHandlers
import KindredMessages
import KindredPostgres

/// The global ranking by coins, read without counting the users: a position is 1 + how many hold more coins,
/// summed from the histograms (migration 7: at most 31 exact rows, 31 small buckets and one large bucket per
/// 1,024 coins above); the page around a user is two short index scans of `coin_balances (standing, user_id)`
/// on either side of them. Every user has a place: one without a balance row (an account registered before
/// identity's `user.registered` enrolled everyone, or one whose event is still on its way) is placed at 0
/// coins, among everyone there, as if the row were there.
enum RankingStore {
    /// One ranked user: coins, and position (shared by equal balances).
    struct Entry: Sendable, Equatable {
        let userID: UserID
        let coins: Int64
        let position: Int64
    }

    /// SQL for how many ranked users hold more than the balance `held` (an expression of the query): the large
    /// buckets above held's, the small buckets above held's inside its large one, the exact balances above held
    /// inside its small one. Written into each statement rather than called as a SQL function, which PostgreSQL
    /// would plan again at every call (measured: 3 to 5 times the cost of the whole page read).
    private static func usersAbove(_ held: String) -> String {
        """
        (COALESCE((SELECT sum(users) FROM gamification.coin_histogram_buckets
                   WHERE level = 2 AND bucket > \(held) >> 10), 0)
         + COALESCE((SELECT sum(users) FROM gamification.coin_histogram_buckets
                     WHERE level = 1 AND bucket > \(held) >> 5 AND bucket < ((\(held) >> 10) + 1) << 5), 0)
         + COALESCE((SELECT sum(users) FROM gamification.coin_histogram
                     WHERE coins > \(held) AND coins < ((\(held) >> 5) + 1) << 5), 0))
        """
    }

    /// `user`'s entry: their coins (0 without a balance row) and position.
    static func entry(of user: UserID, on db: some StatementRunner) async throws -> Entry {
        var query = PostgresQuery(
            unsafeSQL: "SELECT b.coins, 1 + \(usersAbove("b.coins"))::bigint FROM (SELECT COALESCE((")
        query.append(unsafeSQL: "SELECT coins FROM gamification.coin_balances WHERE user_id = ")
        query.append(bind: user)
        query.append(unsafeSQL: "), 0) AS coins) b")
        let (coins, position) = try await db.pureRead(query)[0].decode((Int64, Int64).self)
        return Entry(userID: user, coins: coins, position: position)
    }

    /// `user` and up to `above` users ranked right before them and `below` right after, best first, and how
    /// many users are ranked (`user` counted in when placed at 0 without a row).
    ///
    /// One histogram sum per page: the entries are consecutive in the ranking, so no one holds a balance
    /// between two balances of the page, and each balance's position is the one above it plus the users holding
    /// that one (`coin_histogram`). A user without a row stands at 0 coins (`standing` 0) in the scans, and
    /// joins the page as a row of its own (`placed`) with a balance of 0 among the histogram's.
    static func page(around user: UserID, above: Int, below: Int, on db: some StatementRunner) async throws
        -> (user: Entry, entries: [Entry], ranked: Int64)
    {
        var query = PostgresQuery(unsafeSQL: "WITH held AS (SELECT standing FROM gamification.coin_balances ")
        query.append(unsafeSQL: "WHERE user_id = ")
        query.append(bind: user)
        query.append(
            unsafeSQL: """
                ), me AS (SELECT COALESCE((SELECT standing FROM held), 0) AS standing),
                placed AS (SELECT 
                """)
        query.append(bind: user)
        query.append(unsafeSQL: "::uuid AS user_id, 0::bigint AS coins WHERE NOT EXISTS (SELECT FROM held)")
        // The bounds as scalar subqueries: parameters the index scans start from (a join would filter all).
        query.append(
            unsafeSQL: """
                ), around AS (
                    (SELECT b.user_id, b.coins FROM gamification.coin_balances b
                     WHERE (b.standing, b.user_id) < ((SELECT standing FROM me), 
                """)
        query.append(bind: user)
        query.append(unsafeSQL: ") ORDER BY b.standing DESC, b.user_id DESC LIMIT ")
        query.append(bind: above)
        query.append(
            unsafeSQL: """
                ) UNION ALL (
                    SELECT b.user_id, b.coins FROM gamification.coin_balances b
                    WHERE (b.standing, b.user_id) >= ((SELECT standing FROM me), 
                """)
        query.append(bind: user)
        query.append(unsafeSQL: ") ORDER BY b.standing, b.user_id LIMIT ")
        query.append(bind: below + 1)
        query.append(
            unsafeSQL: """
                ) UNION ALL SELECT user_id, coins FROM placed),
                top AS (SELECT \(usersAbove("t.held")) AS above FROM (SELECT max(coins) AS held FROM around) t),
                balances AS (
                    SELECT coins, sum(users) AS users FROM (
                        SELECT h.coins, h.users FROM gamification.coin_histogram h
                        WHERE h.coins IN (SELECT coins FROM around)
                        UNION ALL SELECT coins, 1 FROM placed) counted
                    GROUP BY coins),
                positions AS (
                    SELECT coins, 1 + (SELECT above FROM top) + COALESCE(sum(users) OVER (
                        ORDER BY coins DESC ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING), 0) AS position
                    FROM balances)
                SELECT a.user_id, a.coins, p.position::bigint,
                    (SELECT COALESCE(sum(users), 0) FROM gamification.coin_histogram_buckets WHERE level = 2)::bigint
                        + (SELECT count(*) FROM placed)
                FROM around a JOIN positions p USING (coins)
                ORDER BY a.coins DESC, a.user_id
                """)
        var ranked: Int64 = 0
        let read = try await db.pureRead(query).map { row in
            let (id, coins, position, total) = try row.decode((UserID, Int64, Int64, Int64).self)
            ranked = total
            return Entry(userID: id, coins: coins, position: position)
        }
        // The scans always read the user's place, from their row or `placed`; the scan after a placed user
        // reads one more than `below`, cut here.
        guard let index = read.firstIndex(where: { $0.userID == user }) else {
            throw PostgresError(kind: .decoding, message: "the ranking page around \(user) lost the user")
        }
        let entries = Array(read[...min(read.count - 1, index + below)])
        return (entries[index], entries, ranked)
    }
}
