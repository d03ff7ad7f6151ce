import KindredAPI
import KindredRPC
import KindredTestSupport
@testable import ServiceTestSupport
import Testing

@Suite struct GetMyStandingTests {
    @Test func theNavigationBarShowsCoinsRankAndThisWeeksPlaceOnTheChosenAppsBoard() async throws {
        try await GamificationTestStack.with { stack in
            stack.clock.set("2026-06-17T12:00:00Z")  // a Wednesday: Monday's and today's usage are this week
            let anna = try await stack.register("anna")
            let ben = try await stack.register("ben")
            try await stack.befriend(anna, ben)
            try await stack.setZone("UTC", standing: "youtube", of: anna)
            try await stack.upload(
                [usageSession("a1", "youtube", from: "2026-06-15T09:00:00Z", minutes: 90)], as: anna)
            try await stack.upload(
                [usageSession("b1", "youtube", from: "2026-06-16T09:00:00Z", minutes: 30)], as: ben)

            let before = try await stack.gamification.getMyStanding(.init(), options: anna.bearer)
            // Nobody has coins yet: both stand first, at 0.
            #expect(before.coinBalance == 0 && before.globalPosition == 1)
            #expect(before.weekly == .init(appID: "youtube", place: 2, people: 2))

            try await stack.grant(40, to: ben)
            try await stack.grant(75, to: anna)
            let after = try await stack.gamification.getMyStanding(.init(), options: anna.bearer)
            #expect(after.coinBalance == 75 && after.globalPosition == 1)
            let bens = try await stack.gamification.getMyStanding(.init(), options: ben.bearer)
            #expect(bens.coinBalance == 40 && bens.globalPosition == 2)
            #expect(bens.weekly == nil)  // Ben chose no app
        }
    }

    @Test func aServiceHasNoStanding() async throws {
        try await GamificationTestStack.with { stack in
            let refused = await rpcError {
                try await stack.gamification.getMyStanding(
                    .init(), options: try await stack.social.base.serviceBearer())
            }
            #expect(refused?.code == .permissionDenied && refused?.reason == "ACCOUNT_REQUIRED")
        }
    }
}
