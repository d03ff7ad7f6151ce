import Foundation
import KindredAPI
import KindredHandlers
import KindredPostgres
import KindredTestSupport
@testable import GamificationService
@testable import ServiceTestSupport
import Testing

@Suite struct ChallengeForgetTests {
    @Test func aDeletedUserLeavesNoChallengeDataAndTheRankingForgetsTheirBalance() async throws {
        try await GamificationTestStack.with { stack in
            let anna = try await stack.register("anna")
            let ben = try await stack.register("ben")
            let annaID = try #require(UserID(anna.id))
            try await stack.befriend(anna, ben)
            let shared = try await stack.createChallenge(anna, days: 1, difficulty: .easy)
            _ = try await stack.createChallenge(anna, days: 1, difficulty: .easy)
            _ = try await stack.gamification.inviteToChallenge(
                .init(challengeID: shared.challengeID, userID: ben.id), options: anna.bearer)
            _ = try await stack.gamification.respondToChallengeInvitation(
                .init(challengeID: shared.challengeID, accept: true), options: ben.bearer)
            stack.clock.advance(seconds: 3 * 86_400 + 13 * 3_600)
            #expect(try await stack.challenges.sweep() == 3)
            for _ in 0..<2 {  // a redelivered event finds nothing more
                try await stack.pool.transaction { tx in try await ChallengeStore.forget(annaID, in: tx) }
            }
            for table in [
                "challenge_participants", "challenge_results", "badges", "achievements", "coin_ledger",
                "coin_balances",
            ] {
                let rows = try await stack.pool.query(
                    PostgresQuery(
                        unsafeSQL: "SELECT count(*) FROM gamification.\(table) WHERE user_id = '\(annaID)'"))
                #expect(try rows[0].decode(Int64.self) == 0, "\(table)")
            }
            let created = try await stack.pool.query(
                "SELECT count(*) FROM gamification.challenges WHERE creator_id = \(annaID)")
            #expect(try created[0].decode(Int64.self) == 0)
            // Ben's part in the challenge Anna shared is his still; the histogram counts him alone.
            let bens = try await stack.gamification.listChallenges(
                .init(list: .finished), options: ben.bearer)
            #expect(bens.challenges.map(\.challengeID) == [shared.challengeID])
            #expect(bens.challenges.first?.creatorUserID == "")
            let ranking = try await stack.gamification.getGlobalRanking(.init(), options: ben.bearer)
            #expect(ranking.rankedUsers == 1)
            #expect(ranking.user?.position == 1)
        }
    }
}
