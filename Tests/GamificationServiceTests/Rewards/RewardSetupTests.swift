import KindredAPI
import KindredMessages
import KindredRPC
import KindredTestSupport
@testable import ServiceTestSupport
import Testing

/// The guardian's setup: only a guardian by family's word changes it; the child reads it; anyone else gets
/// what an id nobody has gets.
@Suite struct RewardSetupTests {
    @Test func aGuardianSetsUpAndTheChildReadsTheSameSetup() async throws {
        try await GamificationTestStack.with { stack in
            let family = try await stack.childWithGuardian("lia")
            let stored = try await stack.setUp(family, learning: ["duolingo", "khan"], reward: ["minecraft"])
            #expect(stored.apps.map(\.appID) == ["duolingo", "khan", "minecraft"])
            #expect((stored.pointsPerLearningMinute, stored.pointsPerRewardMinute) == (2, 3))
            #expect(stored.updatedAt != nil)
            let read = try await stack.gamification.getRewardSetup(.init(), options: family.child.bearer)
                .setup
            #expect(read == stored)

            // A new setup replaces the whole list.
            let changed = try await stack.setUp(family, learning: ["khan"], reward: [], earn: 5, cost: 1)
            #expect(changed.apps.map(\.appID) == ["khan"] && changed.pointsPerLearningMinute == 5)
        }
    }

    @Test func aStrangerIsToldWhatAnUnknownChildGetsAndTheChildCannotSetUp() async throws {
        try await GamificationTestStack.with { stack in
            let family = try await stack.childWithGuardian("max")
            let stranger = try await stack.register("stranger")
            let request = Kindred_Gamification_V1_SetRewardSetupRequest(
                childUserID: family.child.id, apps: [], pointsPerLearningMinute: 1, pointsPerRewardMinute: 1)
            var unknown = request
            unknown.childUserID = "0190a000-0000-7000-8000-000000000000"
            let asStranger = await rpcError {
                try await stack.gamification.setRewardSetup(request, options: stranger.bearer)
            }
            let asUnknown = await rpcError {
                try await stack.gamification.setRewardSetup(unknown, options: family.guardian.bearer)
            }
            #expect(asStranger?.code == .notFound && asStranger?.reason == "CHILD_NOT_FOUND")
            #expect(asStranger?.message == asUnknown?.message && asStranger?.code == asUnknown?.code)
            let dashboard = await rpcError {
                try await stack.dashboard(of: family.child, options: stranger.bearer)
            }
            #expect(dashboard?.reason == "CHILD_NOT_FOUND")

            let ownSetup = await rpcError {
                try await stack.gamification.setRewardSetup(request, options: family.child.bearer)
            }
            #expect(ownSetup?.code == .permissionDenied && ownSetup?.reason == "GUARDIANS_ONLY")
        }
    }

    @Test func aGuardianWhoseLinkEndedIsAStrangerAtOnce() async throws {
        try await GamificationTestStack.with { stack in
            let family = try await stack.childWithGuardian("rio")
            try await stack.setUp(family, learning: ["duolingo"], reward: ["minecraft"])
            let link = try #require(
                try await stack.social.family.listGuardianLinks(.init(), options: family.guardian.bearer)
                    .links
                    .first)
            _ = try await stack.social.family.removeGuardianLink(
                .init(linkID: link.linkID), options: family.guardian.bearer)
            let error = await rpcError {
                try await stack.dashboard(of: family.child, options: family.guardian.bearer)
            }
            #expect(error?.code == .notFound && error?.reason == "CHILD_NOT_FOUND")
        }
    }

    @Test func aSetupThatDropsARewardAppEndsItsUnlockAndReturnsItsPoints() async throws {
        try await GamificationTestStack.with { stack in
            let family = try await stack.childWithGuardian("gus")
            try await stack.setUp(family, learning: ["duolingo"], reward: ["minecraft"])
            let parent = try await stack.parentMode(family)
            try await stack.upload(
                [usageSession("d1", "duolingo", from: "2026-06-15T10:00:00Z", minutes: 30)], as: family.child)
            _ = try await stack.gamification.unlockRewardApp(
                .init(appID: "minecraft", minutes: 10, requestID: "unlock-2"), options: parent)
            try await stack.setUp(family, learning: ["duolingo"], reward: [])
            let after = try await stack.dashboard(options: family.child.bearer)
            #expect((after.availablePoints, after.reservedPoints, after.spentPoints) == (60, 0, 0))
        }
    }

    @Test func aBadSetupNamesEachBadField() async throws {
        try await GamificationTestStack.with { stack in
            let family = try await stack.childWithGuardian("ivo")
            let error = await rpcError {
                try await stack.gamification.setRewardSetup(
                    .init(
                        childUserID: family.child.id,
                        apps: [
                            .init(appID: "duolingo", kind: .learning),
                            .init(appID: "duolingo", kind: .reward),
                            .init(appID: "khan", kind: .unspecified),
                        ],
                        pointsPerLearningMinute: 0, pointsPerRewardMinute: 1001),
                    options: family.guardian.bearer)
            }
            #expect(error?.code == .invalidArgument)
            #expect(
                error?.badFields == [
                    "apps[1].app_id", "apps[2].kind", "points_per_learning_minute",
                    "points_per_reward_minute",
                ])
        }
    }
}
