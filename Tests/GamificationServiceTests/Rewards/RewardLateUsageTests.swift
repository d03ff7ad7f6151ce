import KindredAPI
import KindredMessages
import KindredRPC
import KindredTestSupport
@testable import ServiceTestSupport
import Testing

/// A device offline during an unlock uploads its usage after the unlock has ended and been settled: the
/// minutes inside the unlock are still charged, from its reservation and never beyond it.
@Suite struct RewardLateUsageTests {
    @Test func usageUploadedAfterTheUnlockWasSettledIsCharged() async throws {
        try await GamificationTestStack.with { stack in
            let family = try await stack.childWithGuardian("ren")
            try await stack.setUp(family, learning: ["duolingo"], reward: ["minecraft"])
            let parent = try await stack.parentMode(family)
            try await stack.upload(
                [usageSession("d1", "duolingo", from: "2026-06-15T10:00:00Z", minutes: 30)], as: family.child)
            _ = try await stack.gamification.unlockRewardApp(
                .init(appID: "minecraft", minutes: 10, requestID: "ren-1"), options: parent)
            stack.clock.advance(seconds: 1_200)
            let settled = try #require(
                try await stack.gamification.lockRewardApp(
                    .init(appID: "minecraft"), options: parent
                )
                .dashboard)
            #expect((settled.availablePoints, settled.spentPoints) == (60, 0))

            try await stack.upload(
                [
                    usageSession("m1", "minecraft", from: "2026-06-15T12:02:00Z", minutes: 6),
                    usageSession("m2", "minecraft", from: "2026-06-15T12:12:00Z", minutes: 3),
                ],
                as: family.child)

            // Six minutes inside the 12:00-12:10 unlock cost 18; the three after it nothing.
            let charged = try await stack.dashboard(options: family.child.bearer)
            #expect((charged.availablePoints, charged.reservedPoints, charged.spentPoints) == (42, 0, 18))
        }
    }

    @Test func lateUsageNeverCostsMoreThanTheUnlockReserved() async throws {
        try await GamificationTestStack.with { stack in
            let family = try await stack.childWithGuardian("sol")
            try await stack.setUp(family, learning: ["duolingo"], reward: ["minecraft"])
            let parent = try await stack.parentMode(family)
            try await stack.upload(
                [usageSession("d1", "duolingo", from: "2026-06-15T10:00:00Z", minutes: 30)], as: family.child)
            _ = try await stack.gamification.unlockRewardApp(
                .init(appID: "minecraft", minutes: 5, requestID: "sol-1"), options: parent)
            stack.clock.advance(seconds: 600)
            _ = try await stack.gamification.lockRewardApp(
                .init(appID: "minecraft"), options: parent)

            try await stack.upload(
                [usageSession("m1", "minecraft", from: "2026-06-15T11:58:00Z", minutes: 12)], as: family.child
            )

            let charged = try await stack.dashboard(options: family.child.bearer)
            #expect((charged.availablePoints, charged.spentPoints) == (45, 15))
        }
    }
}
