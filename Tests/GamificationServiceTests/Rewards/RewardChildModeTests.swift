import KindredAPI
import KindredMessages
import KindredRPC
import KindredTestSupport
@testable import ServiceTestSupport
import Testing

/// A child-mode token (family's `EnterChildMode`) reads the dashboard and the setup, and is refused on every
/// write of rewards, the child's and a guardian's alike, before anything changes.
@Suite struct RewardChildModeTests {
    @Test func aChildModeTokenReadsTheDashboardAndIsRefusedOnEveryWrite() async throws {
        try await GamificationTestStack.with { stack in
            let family = try await stack.childWithGuardian("kai")
            try await stack.setUp(family, learning: ["duolingo"], reward: ["minecraft"])
            try await stack.upload(
                [usageSession("d1", "duolingo", from: "2026-06-15T10:00:00Z", minutes: 30)], as: family.child)
            let before = try await stack.dashboard(options: family.child.bearer)

            for user in [family.child, family.guardian] {
                let childMode = try await stack.childMode(user)
                let child = family.child.id
                let writes: [(String, () async throws -> Void)] = [
                    (
                        "SetRewardSetup",
                        {
                            _ = try await stack.gamification.setRewardSetup(
                                .init(
                                    childUserID: child, apps: [], pointsPerLearningMinute: 1000,
                                    pointsPerRewardMinute: 1), options: childMode)
                        }
                    ),
                    (
                        "UnlockRewardApp",
                        {
                            _ = try await stack.gamification.unlockRewardApp(
                                .init(
                                    childUserID: child, appID: "minecraft", minutes: 5, requestID: "unlock-1"),
                                options: childMode)
                        }
                    ),
                    (
                        "LockRewardApp",
                        {
                            _ = try await stack.gamification.lockRewardApp(
                                .init(childUserID: child, appID: "minecraft"), options: childMode)
                        }
                    ),
                ]
                for (name, write) in writes {
                    let error = await rpcError { try await write() }
                    #expect(
                        error?.code == .permissionDenied && error?.reason == "CHILD_MODE_READ_ONLY",
                        "\(name) as \(user.username)")
                }
                #expect(try await stack.dashboard(of: family.child, options: childMode) == before)
                let setup = try await stack.gamification.getRewardSetup(
                    .init(childUserID: child), options: childMode)
                #expect(setup.setup?.pointsPerLearningMinute == 2)
            }
            #expect(try await stack.dashboard(options: family.child.bearer) == before)
        }
    }
}
