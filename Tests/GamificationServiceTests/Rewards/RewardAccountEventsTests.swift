import KindredAPI
import KindredHandlers
import KindredMessages
import KindredPostgres
import KindredTestSupport
@testable import GamificationService
@testable import ServiceTestSupport
import Testing

/// A deleted account's rewards go with it, through the erasures identity's `user.deleted` runs.
@Suite struct RewardAccountEventsTests {
    @Test func aDeletedChildsSetupAndUnlocksGoAndAnotherChildsStay() async throws {
        try await GamificationTestStack.with { stack in
            let families = [
                try await stack.childWithGuardian("una"), try await stack.childWithGuardian("teo"),
            ]
            for family in families {
                try await stack.setUp(family, learning: ["duolingo"], reward: ["minecraft"])
                let parent = try await stack.parentMode(family)
                try await stack.upload(
                    [usageSession("d1", "duolingo", from: "2026-06-15T10:00:00Z", minutes: 30)],
                    as: family.child)
                _ = try await stack.gamification.unlockRewardApp(
                    .init(appID: "minecraft", minutes: 5, requestID: "unlock-9"), options: parent
                )
            }
            let gone = try #require(UserID(families[0].child.id))
            try await stack.pool.transaction { tx in
                for erase in AccountEvents.erasures { try await erase(gone, tx) }
            }
            #expect(try await rewardRows(of: families[0].child, stack) == 0)
            #expect(try await rewardRows(of: families[1].child, stack) == 4)
        }
    }

    private func rewardRows(of child: TestUser, _ stack: GamificationTestStack) async throws -> Int {
        try await stack.pool.query(
            """
            SELECT (SELECT count(*) FROM gamification.reward_settings WHERE child_id = \(child.id)::uuid)
                + (SELECT count(*) FROM gamification.reward_apps WHERE child_id = \(child.id)::uuid)
                + (SELECT count(*) FROM gamification.reward_unlocks WHERE child_id = \(child.id)::uuid)
            """)[0].decode(Int.self, column: 0)
    }
}
