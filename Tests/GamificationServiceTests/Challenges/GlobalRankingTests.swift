import Foundation
import KindredAPI
import KindredHandlers
import KindredPostgres
import KindredTestSupport
@testable import GamificationService
@testable import ServiceTestSupport
import Testing

@Suite struct GlobalRankingTests {
    /// Seeds `count` ranked users with pseudo-random balances (0 to 49,999), and the histograms that go with
    /// them, as the ledger keeps them.
    static func seed(_ count: Int, on pool: PostgresPool) async throws {
        try await pool.query(
            """
            INSERT INTO gamification.coin_balances (user_id, coins)
            SELECT ('00000000-0000-7000-8000-' || lpad(to_hex(i), 12, '0'))::uuid, (i * 7919) % 50000
            FROM generate_series(1, \(count)) AS i
            """)
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
            let started = ContinuousClock.now
            let ranking = try await stack.gamification.getGlobalRanking(
                .init(pageSize: 11), options: anna.bearer)
            let elapsed = ContinuousClock.now - started
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
            #expect(elapsed < .milliseconds(250), "GetGlobalRanking took \(elapsed)")
        }
    }

    @Test func someoneWhoNeverTookPartIsNotRanked() async throws {
        try await GamificationTestStack.with { stack in
            let anna = try await stack.register("anna")
            for userID in ["", UserID.generate(at: Date()).description] {
                await #expect(throws: Error.self) {
                    _ = try await stack.gamification.getGlobalRanking(
                        .init(userID: userID), options: anna.bearer)
                }
            }
        }
    }
}
