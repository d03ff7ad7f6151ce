import Foundation
import KindredAPI
import KindredHandlers
import KindredPostgres
import KindredRPC
import KindredTestSupport
@testable import GamificationService
@testable import ServiceTestSupport
import Testing

@Suite struct CoinLedgerTests {
    @Test func fiftyConcurrentForfeitsTakeTheBalanceToZeroAndRecordWhatTheyTook() async throws {
        try await GamificationTestStack.with { stack in
            let anna = try await stack.register("anna")
            let annaID = try #require(UserID(anna.id))
            var created: [ChallengeID] = []
            for _ in 0..<50 {
                // Hard, 7 days: completing awards 210, forfeiting deducts 105.
                created.append(try await stack.createChallenge(anna, days: 7, difficulty: .hard).id)
            }
            try await stack.grant(300, to: anna)
            let challenges = stack.challenges
            let deducted = try await withThrowingTaskGroup(of: Int64.self) { group in
                for id in created { group.addTask { -(try await challenges.forfeit(id, as: annaID)).coins } }
                return try await group.reduce(0, +)
            }
            #expect(deducted == 300)
            #expect(try await challenges.balance(of: annaID) == 0)
            let rows = try await stack.pool.query(
                """
                SELECT count(*), COALESCE(sum(amount), 0)::bigint, bool_and(amount >= requested)
                FROM gamification.coin_ledger WHERE user_id = \(annaID) AND reason = 'forfeited'
                """)
            let (entries, sum, withinRequested) = try rows[0].decode((Int64, Int64, Bool).self)
            #expect(entries == 50)
            #expect(sum == -300)
            #expect(withinRequested)
            // The ranking's histogram moved with the balance: Anna is counted at 0 only.
            let histogram = try await stack.pool.query(
                "SELECT COALESCE(sum(users), 0)::bigint FROM gamification.coin_histogram WHERE coins > 0")
            #expect(try histogram[0].decode(Int64.self) == 0)
        }
    }

    @Test func forfeitingAChallengeAlreadyOverIsChallengeEnded() async throws {
        try await GamificationTestStack.with { stack in
            let anna = try await stack.register("anna")
            let challenge = try await stack.createChallenge(anna)
            let first = try await stack.gamification.forfeitChallenge(
                .init(challengeID: challenge.challengeID), options: anna.bearer)
            #expect(first.coinsDeducted == 0)  // nothing to take yet
            let again = try await #require(throws: RPCError.self) {
                _ = try await stack.gamification.forfeitChallenge(
                    .init(challengeID: challenge.challengeID), options: anna.bearer)
            }
            #expect(again.code == .failedPrecondition)
            #expect(again.reason == "CHALLENGE_ENDED")
        }
    }
}
