import KindredAPI
import KindredMessages
import KindredRPC
import KindredTestSupport
@testable import ServiceTestSupport
import Testing

/// Points: learning minutes earn, an unlock reserves, used minutes spend, a lock returns the rest, and
/// available never goes below zero however many unlocks run at once.
@Suite struct RewardPointsTests {
    @Test func learningMinutesEarnAndTheDashboardListsOnlyUsedMarkedApps() async throws {
        try await GamificationTestStack.with { stack in
            let family = try await stack.childWithGuardian("noa")
            try await stack.setUp(family, learning: ["duolingo", "khan"], reward: ["minecraft", "roblox"])
            try await stack.upload(
                [
                    usageSession("d1", "duolingo", from: "2026-06-15T09:00:00Z", minutes: 20.5),
                    usageSession("y1", "youtube", from: "2026-06-15T09:30:00Z", minutes: 40),
                    usageSession("m1", "minecraft", from: "2026-06-15T10:00:00Z", minutes: 5),
                ],
                as: family.child)
            let mine = try await stack.dashboard(options: family.child.bearer)
            // 20 whole minutes of duolingo at 2 points; khan and roblox unused, youtube not marked: not listed.
            #expect((mine.totalEarnedPoints, mine.availablePoints, mine.reservedPoints) == (40, 40, 0))
            #expect(mine.learningApps.map(\.appID) == ["duolingo"])
            #expect(
                mine.learningApps.first?.secondsUsed == 1_230 && mine.learningApps.first?.pointsEarned == 40)
            #expect(mine.rewardApps.map(\.appID) == ["minecraft"] && mine.rewardApps.first?.unlocked == false)
            // The guardian sees the very same numbers.
            let theirs = try await stack.dashboard(of: family.child, options: family.guardian.bearer)
            #expect(theirs == mine)
        }
    }

    @Test func anUnlockReservesUsedMinutesSpendAndTheLockReturnsTheRest() async throws {
        try await GamificationTestStack.with { stack in
            let family = try await stack.childWithGuardian("ada")
            try await stack.setUp(family, learning: ["duolingo"], reward: ["minecraft"])
            let parent = try await stack.parentMode(family)
            try await stack.upload(
                [usageSession("d1", "duolingo", from: "2026-06-15T10:00:00Z", minutes: 30)], as: family.child)
            let unlocked = try #require(
                try await stack.gamification.unlockRewardApp(
                    .init(
                        childUserID: family.child.id, appID: "minecraft", minutes: 10, requestID: "unlock-3"),
                    options: family.guardian.bearer
                ).dashboard)
            #expect((unlocked.availablePoints, unlocked.reservedPoints, unlocked.spentPoints) == (30, 30, 0))

            stack.clock.advance(seconds: 300)
            try await stack.upload(
                [usageSession("m1", "minecraft", from: "2026-06-15T12:00:00Z", minutes: 3.5)],
                as: family.child)
            let playing = try await stack.dashboard(options: family.child.bearer)
            // 4 started minutes at 3 points spent so far, the rest still held.
            #expect((playing.availablePoints, playing.reservedPoints, playing.spentPoints) == (30, 18, 12))
            let app = try #require(playing.rewardApps.first)
            #expect(app.unlocked && app.pointsSpent == 12 && app.secondsUsed == 210)
            #expect(app.unlockedUntil == TestClock.parse("2026-06-15T12:10:00Z"))

            let locked = try #require(
                try await stack.gamification.lockRewardApp(
                    .init(appID: "minecraft"), options: parent
                ).dashboard)
            #expect((locked.availablePoints, locked.reservedPoints, locked.spentPoints) == (48, 0, 12))
            #expect(locked.rewardApps.first?.unlocked == false)
        }
    }

    @Test func anUnlockEndsByItselfChargingOnlyTheMinutesUsedInsideIt() async throws {
        try await GamificationTestStack.with { stack in
            let family = try await stack.childWithGuardian("bea")
            try await stack.setUp(family, learning: ["duolingo"], reward: ["minecraft"])
            let parent = try await stack.parentMode(family)
            try await stack.upload(
                [usageSession("d1", "duolingo", from: "2026-06-15T10:00:00Z", minutes: 30)], as: family.child)
            _ = try await stack.gamification.unlockRewardApp(
                .init(childUserID: family.child.id, appID: "minecraft", minutes: 10, requestID: "unlock-4"),
                options: family.guardian.bearer)
            stack.clock.advance(seconds: 1_200)
            try await stack.upload(
                [
                    usageSession("m1", "minecraft", from: "2026-06-15T12:02:00Z", minutes: 6),
                    usageSession("m2", "minecraft", from: "2026-06-15T12:12:00Z", minutes: 3),
                ],
                as: family.child)
            // Ended at 12:10: the six minutes inside it cost 18, the three after it nothing.
            let ended = try await stack.dashboard(options: family.child.bearer)
            #expect((ended.availablePoints, ended.reservedPoints, ended.spentPoints) == (42, 0, 18))
            #expect(ended.rewardApps.first?.unlocked == false && ended.rewardApps.first?.unlockedUntil == nil)
            let again = try #require(
                try await stack.gamification.unlockRewardApp(
                    .init(appID: "minecraft", minutes: 5, requestID: "unlock-5"), options: parent
                ).dashboard)
            #expect((again.availablePoints, again.reservedPoints, again.spentPoints) == (27, 15, 18))
        }
    }

    @Test func anUnlockBeyondThePointsOrOfAnAppNotARewardIsRefused() async throws {
        try await GamificationTestStack.with { stack in
            let family = try await stack.childWithGuardian("eli")
            try await stack.setUp(family, learning: ["duolingo"], reward: ["minecraft"])
            let parent = try await stack.parentMode(family)
            try await stack.upload(
                [usageSession("d1", "duolingo", from: "2026-06-15T10:00:00Z", minutes: 10)], as: family.child)
            let tooLong = await rpcError {
                try await stack.gamification.unlockRewardApp(
                    .init(appID: "minecraft", minutes: 7, requestID: "unlock-6"), options: parent
                )
            }
            #expect(tooLong?.code == .failedPrecondition && tooLong?.reason == "NOT_ENOUGH_POINTS")
            #expect(tooLong?.metadata == ["available_points": "20", "needed_points": "21"])
            let notReward = await rpcError {
                try await stack.gamification.unlockRewardApp(
                    .init(appID: "duolingo", minutes: 1, requestID: "unlock-7"), options: parent)
            }
            #expect(notReward?.reason == "NOT_A_REWARD_APP")
        }
    }

    @Test func concurrentUnlocksNeverTakeAvailableBelowZero() async throws {
        try await GamificationTestStack.with { stack in
            let family = try await stack.childWithGuardian("zoe")
            let games = (1...12).map { "game\($0)" }
            try await stack.setUp(family, learning: ["duolingo"], reward: games, earn: 10, cost: 1)
            let parent = try await stack.parentMode(family)
            try await stack.upload(
                [usageSession("d1", "duolingo", from: "2026-06-15T10:00:00Z", minutes: 10)], as: family.child)
            // 100 points; twelve unlocks of 30 minutes at once, and three more of the same game.
            let requests =
                games.map {
                    Kindred_Gamification_V1_UnlockRewardAppRequest(appID: $0, minutes: 30, requestID: $0)
                }
                + (1...3).map { .init(appID: "game1", minutes: 30, requestID: "game1-again-\($0)") }
            let reasons = try await withThrowingTaskGroup(of: String.self) { group in
                for request in requests {
                    group.addTask {
                        let error = await rpcError {
                            try await stack.gamification.unlockRewardApp(
                                request, options: parent)
                        }
                        return error?.reason ?? "UNLOCKED"
                    }
                }
                return try await group.reduce(into: [String: Int]()) { $0[$1, default: 0] += 1 }
            }
            #expect(reasons["UNLOCKED"] == 3)
            #expect(reasons.values.reduce(0, +) == 15)
            let after = try await stack.dashboard(options: family.child.bearer)
            #expect((after.availablePoints, after.reservedPoints, after.totalEarnedPoints) == (10, 90, 100))
        }
    }
}
