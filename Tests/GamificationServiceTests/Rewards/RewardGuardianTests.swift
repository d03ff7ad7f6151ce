import KindredAPI
import KindredMessages
import KindredRPC
import KindredTestSupport
@testable import ServiceTestSupport
import Testing

/// Only a guardian changes a child's reward apps: the guardian's own account, or the child's device in parent
/// mode proven with the guardian PIN, which may do all a guardian's device does. The child's own sign-in (a
/// full token) and parent mode proven with the child's own password only read.
@Suite struct RewardGuardianTests {
    /// Every write of rewards for `family.child` with `options`, by name, each answering what it threw.
    static func writes(_ stack: GamificationTestStack, _ family: RewardFamily, options: CallOptions) async
        -> [String: RPCError?]
    {
        let child = family.child.id
        return [
            "SetRewardSetup": await rpcError {
                _ = try await stack.gamification.setRewardSetup(
                    .init(
                        childUserID: child, apps: [.init(appID: "minecraft", kind: .learning)],
                        pointsPerLearningMinute: 1000, pointsPerRewardMinute: 1),
                    options: options)
            },
            "UnlockRewardApp": await rpcError {
                _ = try await stack.gamification.unlockRewardApp(
                    .init(childUserID: child, appID: "minecraft", minutes: 5, requestID: "own-1"),
                    options: options)
            },
            "LockRewardApp": await rpcError {
                _ = try await stack.gamification.lockRewardApp(
                    .init(childUserID: child, appID: "minecraft"), options: options)
            },
        ]
    }

    @Test func aChildsOwnSignInCannotUnlockLockOrChangeTheSetup() async throws {
        try await GamificationTestStack.with { stack in
            let family = try await stack.childWithGuardian("pia")
            let setup = try await stack.setUp(family, learning: ["duolingo"], reward: ["minecraft"])
            try await stack.upload(
                [usageSession("d1", "duolingo", from: "2026-06-15T10:00:00Z", minutes: 30)], as: family.child)
            let before = try await stack.dashboard(options: family.child.bearer)
            let ownPassword = try #require(
                try await stack.social.family.enterParentMode(
                    .init(proof: .password(family.child.password)),
                    options: try await stack.childMode(family.child)
                ).tokens)
            let callers = [
                ("the child's sign-in", family.child.bearer),
                ("parent mode with the child's password", FamilyTestStack.bearer(ownPassword.accessToken)),
            ]
            for (name, options) in callers {
                for (method, error) in await Self.writes(stack, family, options: options) {
                    #expect(
                        error?.code == .permissionDenied && error?.reason == "GUARDIANS_ONLY",
                        "\(method), \(name)")
                }
            }
            #expect(try await stack.dashboard(options: family.child.bearer) == before)
            let read = try await stack.gamification.getRewardSetup(.init(), options: family.child.bearer)
            #expect(read.setup == setup)
        }
    }

    @Test func parentModeWithTheGuardianPinOnTheChildsDeviceSetsUpUnlocksAndLocks() async throws {
        try await GamificationTestStack.with { stack in
            let family = try await stack.childWithGuardian("oli")
            let parent = try await stack.parentMode(family)
            try await stack.upload(
                [usageSession("d1", "duolingo", from: "2026-06-15T10:00:00Z", minutes: 30)], as: family.child)
            // The child's own id or none: both name the device's child.
            for childID in ["", family.child.id] {
                let setup = try await stack.gamification.setRewardSetup(
                    .init(
                        childUserID: childID,
                        apps: [
                            .init(appID: "duolingo", kind: .learning),
                            .init(appID: "minecraft", kind: .reward),
                        ],
                        pointsPerLearningMinute: 2, pointsPerRewardMinute: 3),
                    options: parent)
                #expect(setup.setup?.childUserID == family.child.id && setup.setup?.apps.count == 2)
            }
            let unlocked = try #require(
                try await stack.gamification.unlockRewardApp(
                    .init(appID: "minecraft", minutes: 10, requestID: "oli-1"), options: parent
                ).dashboard)
            #expect((unlocked.availablePoints, unlocked.reservedPoints) == (30, 30))
            let locked = try #require(
                try await stack.gamification.lockRewardApp(.init(appID: "minecraft"), options: parent)
                    .dashboard)
            #expect((locked.availablePoints, locked.reservedPoints) == (60, 0))
        }
    }

    @Test func parentModeOnAnotherChildsDeviceGuardsNoOneElse() async throws {
        try await GamificationTestStack.with { stack in
            let family = try await stack.childWithGuardian("uma")
            let other = try await stack.childWithGuardian("ugo")
            try await stack.setUp(other, learning: ["duolingo"], reward: ["minecraft"])
            let parent = try await stack.parentMode(family)
            for (method, error) in await Self.writes(stack, other, options: parent) {
                #expect(error?.code == .notFound && error?.reason == "CHILD_NOT_FOUND", "\(method)")
            }
        }
    }
}
