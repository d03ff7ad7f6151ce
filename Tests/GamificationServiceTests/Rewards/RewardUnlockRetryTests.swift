import KindredAPI
import KindredMessages
import KindredRPC
import KindredTestSupport
@testable import ServiceTestSupport
import Testing

/// `UnlockRewardApp` carries a request id: a retry of an unlock that happened answers the dashboard with
/// that unlock in it, and reserves nothing twice; an unlock without one is refused before anything changes.
@Suite struct RewardUnlockRetryTests {
    @Test func aRetriedUnlockReservesOnceAndAnswersTheDashboard() async throws {
        try await GamificationTestStack.with { stack in
            let family = try await stack.childWithGuardian("ivy")
            try await stack.setUp(family, learning: ["duolingo"], reward: ["minecraft"])
            let parent = try await stack.parentMode(family)
            try await stack.upload(
                [usageSession("d1", "duolingo", from: "2026-06-15T10:00:00Z", minutes: 30)], as: family.child)
            let request = Kindred_Gamification_V1_UnlockRewardAppRequest(
                appID: "minecraft", minutes: 10, requestID: "ivy-unlock-1")

            let first = try #require(
                try await stack.gamification.unlockRewardApp(request, options: parent).dashboard)
            let retried = try #require(
                try await stack.gamification.unlockRewardApp(request, options: parent).dashboard)

            #expect((first.availablePoints, first.reservedPoints) == (30, 30))
            #expect(retried == first)
            let unlocks = try await stack.pool.query(
                "SELECT count(*) FROM gamification.reward_unlocks WHERE child_id = \(family.child.id)::uuid")
            #expect(try unlocks[0].decode(Int.self, column: 0) == 1)
            // A new request for the running app is still refused as before.
            let another = await rpcError {
                try await stack.gamification.unlockRewardApp(
                    .init(appID: "minecraft", minutes: 10, requestID: "ivy-unlock-2"),
                    options: parent)
            }
            #expect(another?.reason == "REWARD_APP_ALREADY_UNLOCKED")
        }
    }

    @Test func anUnlockWithoutARequestIDIsRefusedNamingTheField() async throws {
        try await GamificationTestStack.with { stack in
            let family = try await stack.childWithGuardian("max")
            try await stack.setUp(family, learning: ["duolingo"], reward: ["minecraft"])
            let parent = try await stack.parentMode(family)
            let error = await rpcError {
                try await stack.gamification.unlockRewardApp(
                    .init(appID: "minecraft", minutes: 10), options: parent)
            }
            #expect(error?.code == .invalidArgument)
            #expect(error?.badFields == ["request_id"])
        }
    }
}
