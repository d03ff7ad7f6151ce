import Foundation
import KindredAPI
import KindredHandlers
import KindredMessages
import KindredRPC
import KindredTestSupport
@testable import GamificationService
@testable import ServiceTestSupport
import Testing

@Suite struct PopularChallengeTests {
    static let instagramDetoxDay = "01936a00-0000-7000-8000-000000000003"

    @Test func theSeededChallengesAreListedAndAnyoneJoins() async throws {
        try await GamificationTestStack.with { stack in
            let anna = try await stack.register("anna")
            let popular = try await stack.gamification.listPopularChallenges(.init(), options: anna.bearer)
            #expect(
                Set(popular.challenges.map(\.name))
                    == ["YouTube 2 hour fast", "WhatsApp 1 minute limit", "Instagram detox day"])
            #expect(
                popular.challenges.allSatisfy {
                    $0.popular && $0.creatorUserID.isEmpty && $0.state == .unspecified
                })
            let joined = try await stack.gamification.joinPopularChallenge(
                .init(challengeID: Self.instagramDetoxDay), options: anna.bearer)
            #expect(joined.challenge?.state == .active)
            let again = try await stack.gamification.joinPopularChallenge(
                .init(challengeID: Self.instagramDetoxDay), options: anna.bearer)
            #expect(again.challenge == joined.challenge)
        }
    }

    @Test func theLeaderboardStreamSeesACompletionAndTheAchievementStreamCelebratesIt() async throws {
        try await GamificationTestStack.with { stack in
            let anna = try await stack.register("anna")
            let ben = try await stack.register("ben")
            for user in [anna, ben] {
                _ = try await stack.gamification.joinPopularChallenge(
                    .init(challengeID: Self.instagramDetoxDay), options: user.bearer)
            }
            let board = stack.gamification.watchChallengeLeaderboard(
                .init(challengeID: Self.instagramDetoxDay), options: ben.bearer)
            let achievements = stack.gamification.watchMyAchievements(.init(), options: anna.bearer)
            // Both streams start from their first entry: whether they subscribe before or after the sweep,
            // they see all of it.
            let seen = Task {
                var results: [Kindred_Gamification_V1_ChallengeResult] = []
                for try await result in board {
                    results.append(result)
                    if results.count == 2 { break }
                }
                return results
            }
            let celebrated = Task {
                var kinds: [String] = []
                for try await achievement in achievements {
                    switch achievement.payload {
                    case .coinsChanged: kinds.append("coins")
                    case .badgeEarned: kinds.append("badge")
                    case .challengeFinished: kinds.append("finished")
                    case nil: kinds.append("empty")
                    }
                    if kinds.count == 3 { break }
                }
                return kinds
            }
            let annas = try await stack.gamification.listChallenges(
                .init(list: .active), options: anna.bearer)
            let day = try #require(annas.challenges.first?.firstDay)
            try await stack.recordUsage(ben, app: "instagram", on: day.text, minutes: 5)
            stack.clock.advance(seconds: 2 * 86_400 + 13 * 3_600)
            #expect(try await stack.challenges.sweep() == 2)
            let results = try await seen.value
            #expect(Set(results.map(\.outcome)) == [.completed, .failed])
            #expect(results.first { $0.outcome == .completed }?.userID == anna.id)
            #expect(try await celebrated.value == ["coins", "badge", "finished"])
            let leaderboard = try await stack.gamification.getChallengeLeaderboard(
                .init(challengeID: Self.instagramDetoxDay), options: anna.bearer)
            #expect(leaderboard.results.map(\.userID) == [anna.id, ben.id])
            #expect(leaderboard.activeParticipants == 0)
        }
    }
}
