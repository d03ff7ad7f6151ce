import Foundation
import KindredAPI
import KindredAuth
import KindredHandlers
import KindredMessages
import KindredRPC
import KindredTestSupport
@testable import GamificationService
@testable import ServiceTestSupport
import Testing

@Suite struct ChallengeRequestTests {
    @Test func aMalformedChallengeNamesEveryBadFieldInOneAnswer() async throws {
        try await GamificationTestStack.with { stack in
            let anna = try await stack.register("anna")
            let error = try await #require(throws: RPCError.self) {
                _ = try await stack.gamification.createChallenge(
                    .init(appID: "You Tube", dailyLimitMinutes: 1_441, durationDays: 0), options: anna.bearer)
            }
            #expect(error.code == .invalidArgument)
            #expect(
                Set(error.badFields)
                    == ["request_id", "app_id", "daily_limit_minutes", "duration_days", "difficulty"])
        }
    }

    @Test func aRetriedCreateReturnsTheFirstChallengeAndAnotherWithTheSameKeyIsRefused() async throws {
        try await GamificationTestStack.with { stack in
            let anna = try await stack.register("anna")
            let first = try await stack.createChallenge(anna, requestID: "once")
            let retried = try await stack.createChallenge(anna, requestID: "once")
            #expect(retried == first)
            let error = try await #require(throws: RPCError.self) {
                _ = try await stack.createChallenge(anna, app: "tiktok", requestID: "once")
            }
            #expect(error.reason == "REQUEST_ID_REUSED")
            let active = try await stack.gamification.listChallenges(
                .init(list: .active), options: anna.bearer)
            #expect(active.challenges.count == 1)
        }
    }

    @Test func onlyAnAdminCreatesAPopularChallengeWithItsFixedAward() async throws {
        try await GamificationTestStack.with { stack in
            let anna = try await stack.register("anna")
            let refused = try await #require(throws: RPCError.self) {
                _ = try await stack.gamification.createPopularChallenge(
                    .init(
                        requestID: "p", appID: "tiktok", dailyLimitMinutes: 10, durationDays: 3, coinAward: 99
                    ),
                    options: anna.bearer)
            }
            #expect(refused.code == .permissionDenied)
            #expect(refused.reason == "ADMIN_REQUIRED")
            let admin = UserID.generate(at: Date())
            let draft = try ChallengeDraft(
                Kindred_Gamification_V1_CreatePopularChallengeRequest(
                    requestID: "p", name: "TikTok ten", appID: "tiktok", dailyLimitMinutes: 10,
                    durationDays: 3,
                    coinAward: 99))
            let created = try await stack.challenges.createPopular(draft, by: admin)
            #expect(created.popular && created.coinAward == 99)
            #expect(try await stack.challenges.createPopular(draft, by: admin).id == created.id)
            let listed = try await stack.gamification.listPopularChallenges(.init(), options: anna.bearer)
            #expect(listed.challenges.first?.name == "TikTok ten")
            #expect(listed.challenges.first?.creatorUserID == "")
        }
    }

    @Test func listsPageNewestFirstAndATokenServesOnlyItsOwnList() async throws {
        try await GamificationTestStack.with { stack in
            let anna = try await stack.register("anna")
            var created: [String] = []
            for _ in 0..<3 {
                created.append(try await stack.createChallenge(anna).challengeID)
                stack.clock.advance(seconds: 1)
            }
            let first = try await stack.gamification.listChallenges(
                .init(list: .active, page: .init(pageSize: 2)), options: anna.bearer)
            let token = try #require(first.page?.nextPageToken)
            let second = try await stack.gamification.listChallenges(
                .init(list: .active, page: .init(pageSize: 2, pageToken: token)), options: anna.bearer)
            #expect((first.challenges + second.challenges).map(\.challengeID) == created.reversed())
            #expect(second.page?.nextPageToken == "")
            let elsewhere = try await #require(throws: RPCError.self) {
                _ = try await stack.gamification.listChallenges(
                    .init(list: .finished, page: .init(pageToken: token)), options: anna.bearer)
            }
            #expect(elsewhere.badFields == ["page.page_token"])
        }
    }
}
