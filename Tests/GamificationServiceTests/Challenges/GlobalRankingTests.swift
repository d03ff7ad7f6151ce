import Foundation
import KindredAPI
import KindredHandlers
import KindredMessages
import KindredPostgres
import KindredTestSupport
@testable import GamificationService
@testable import ServiceTestSupport
import Testing

@Suite struct GlobalRankingTests {
    /// Seeds `count` ranked users with pseudo-random balances (0 to 49,999), and the histograms that go with
    /// them, as the ledger keeps them.
    static func seed(_ count: Int, on pool: PostgresPool) async throws {
        // In slices of 100,000: one statement for a million rows passed the pool's 30 s statement_timeout when
        // the whole suite shared the machine (a local run, session 20).
        for first in stride(from: 1, through: count, by: 100_000) {
            try await pool.query(
                """
                INSERT INTO gamification.coin_balances (user_id, coins)
                SELECT ('00000000-0000-7000-8000-' || lpad(to_hex(i), 12, '0'))::uuid, (i * 7919) % 50000
                FROM generate_series(\(first), \(min(first + 99_999, count))) AS i
                """)
        }
        try await pool.query(
            """
            INSERT INTO gamification.coin_histogram (coins, users)
            SELECT coins, count(*) FROM gamification.coin_balances GROUP BY coins
            ON CONFLICT (coins) DO UPDATE SET users = gamification.coin_histogram.users + excluded.users
            """)
        for (level, shift) in CoinStore.bucketLevels {
            try await pool.query(
                """
                INSERT INTO gamification.coin_histogram_buckets (level, bucket, users)
                SELECT \(level), coins >> \(Int32(shift)), count(*) FROM gamification.coin_balances GROUP BY 2
                ON CONFLICT (level, bucket) DO UPDATE
                SET users = gamification.coin_histogram_buckets.users + excluded.users
                """)
        }
        try await pool.query("ANALYZE gamification.coin_balances")
    }

    @Test func aUsersPositionAmongAMillionIsExactAndTheirPageSurroundsThem() async throws {
        try await GamificationTestStack.with { stack in
            try await Self.seed(1_000_000, on: stack.pool)
            let anna = try await stack.register("anna")
            try await stack.grant(31_337, to: anna)
            let annaID = try #require(UserID(anna.id))
            let counted = try await stack.pool.query(
                "SELECT 1 + count(*) FROM gamification.coin_balances WHERE coins > 31337")
            let expected = try counted[0].decode(Int64.self)
            #expect(try await stack.challenges.globalPosition(of: annaID) == expected)
            let ranking = try await stack.gamification.getGlobalRanking(
                .init(pageSize: 11), options: anna.bearer)
            #expect(ranking.user?.position == expected)
            #expect(ranking.user?.coins == 31_337)
            #expect(ranking.rankedUsers == 1_000_001)
            #expect(ranking.entries.count == 11)
            #expect(ranking.entries[5].userID == anna.id)
            // Best first; equal balances share a position, which is 1 + how many hold more.
            #expect(zip(ranking.entries, ranking.entries.dropFirst()).allSatisfy { $0.coins >= $1.coins })
            for entry in ranking.entries {
                let above = try await stack.pool.query(
                    "SELECT 1 + count(*) FROM gamification.coin_balances WHERE coins > \(entry.coins)")
                #expect(try entry.position == above[0].decode(Int64.self))
            }

            // Someone who never took part stands among the million with everyone at 0.
            let ben = try await stack.register("ben")
            let atZero = try await stack.gamification.getGlobalRanking(
                .init(pageSize: 11), options: ben.bearer)
            let aboveZero = try await stack.pool.query(
                "SELECT 1 + count(*) FROM gamification.coin_balances WHERE coins > 0")
            #expect(try atZero.user?.position == aboveZero[0].decode(Int64.self))
            #expect(atZero.user?.coins == 0 && atZero.rankedUsers == 1_000_002)
        }
    }

    /// Checks `ranking` against a count of `coin_balances`, `user` placed at 0 coins when they hold no row.
    static func expectExact(
        _ ranking: Kindred_Gamification_V1_GetGlobalRankingResponse, of user: String,
        on pool: PostgresPool
    ) async throws {
        #expect(ranking.user?.userID == user && ranking.entries.contains { $0.userID == user })
        #expect(
            zip(ranking.entries, ranking.entries.dropFirst()).allSatisfy {
                ($0.coins, $1.userID) >= ($1.coins, $0.userID)
            })
        for entry in ranking.entries {
            let above = try await pool.query(
                "SELECT 1 + count(*) FROM gamification.coin_balances WHERE coins > \(entry.coins)")
            #expect(try entry.position == above[0].decode(Int64.self))
        }
    }

    @Test func someoneWhoNeverTookPartStandsWithEveryoneAtTheirTotal() async throws {
        try await GamificationTestStack.with { stack in
            try await Self.seed(1_000, on: stack.pool)
            let (anna, ben) = (try await stack.register("anna"), try await stack.register("ben"))
            // Ben's account was registered after the ranking took everyone in: identity's event enrolled him.
            let events = AccountEvents(clock: stack.context.clock, logger: stack.context.logger)
            try await stack.pool.transaction { tx in
                var registered = Kindred_Identity_V1_Event()
                registered.payload = .userRegistered(.init(userID: ben.id))
                try await events.apply(registered, in: tx)
            }
            let bens = try await stack.gamification.getGlobalRanking(.init(pageSize: 7), options: ben.bearer)
            try await Self.expectExact(bens, of: ben.id, on: stack.pool)
            #expect(bens.rankedUsers == 1_001 && bens.user?.coins == 0)

            // Anna has no row yet: she stands where Ben does, and a made-up id answers just as she does.
            let annas = try await stack.gamification.getGlobalRanking(
                .init(pageSize: 7), options: anna.bearer)
            try await Self.expectExact(annas, of: anna.id, on: stack.pool)
            #expect(annas.rankedUsers == 1_002 && annas.user?.position == bens.user?.position)
            // Three above her; below her only Ben, if his id sorts after hers.
            #expect(annas.entries.count == (ben.id > anna.id ? 5 : 4))
            #expect(annas.entries.contains { $0.userID == ben.id })
            let nobody = UserID.generate(at: Date()).description
            let unknown = try await stack.gamification.getGlobalRanking(
                .init(userID: nobody, pageSize: 7), options: anna.bearer)
            try await Self.expectExact(unknown, of: nobody, on: stack.pool)
            #expect(
                unknown.user?.position == annas.user?.position && unknown.rankedUsers == annas.rankedUsers)
        }
    }
}
