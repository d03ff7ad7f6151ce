import KindredAPI
import KindredMessages
import KindredRPC
import KindredTestSupport
@testable import ServiceTestSupport
import Testing

/// A child of 14 with a guardian linked through family, at a fixed instant.
struct RewardFamily {
    let child: TestUser
    let guardian: TestUser
}

extension GamificationTestStack {
    /// Registers `name` (14) and their guardian `name`_mum through family's invitation, at 15 June 12:00 UTC.
    func childWithGuardian(_ name: String) async throws -> RewardFamily {
        clock.set("2026-06-15T12:00:00Z")
        let child = try await register(name, age: 14)
        let guardian = try await social.guardian("\(name)_mum", of: child)
        return RewardFamily(child: child, guardian: guardian)
    }

    /// The guardian's setup: `learning` and `reward` apps, 2 points a learning minute, 3 a reward minute.
    @discardableResult
    func setUp(
        _ family: RewardFamily, learning: [String], reward: [String], earn: Int32 = 2, cost: Int32 = 3
    ) async throws -> Kindred_Gamification_V1_RewardSetup {
        let apps =
            learning.map { Kindred_Gamification_V1_RewardApp(appID: $0, kind: .learning) }
            + reward.map { Kindred_Gamification_V1_RewardApp(appID: $0, kind: .reward) }
        return try #require(
            try await gamification.setRewardSetup(
                .init(
                    childUserID: family.child.id, apps: apps, pointsPerLearningMinute: earn,
                    pointsPerRewardMinute: cost),
                options: family.guardian.bearer
            ).setup)
    }

    /// `user`'s dashboard of `child` (their own when nil), read with `options`.
    func dashboard(of child: TestUser? = nil, options: CallOptions) async throws
        -> Kindred_Gamification_V1_ChildDashboard
    {
        try #require(
            try await gamification.getChildDashboard(.init(childUserID: child?.id ?? ""), options: options)
                .dashboard)
    }

    /// Call options with a child-mode token of `user`, from family's `EnterChildMode`.
    func childMode(_ user: TestUser) async throws -> CallOptions {
        let tokens = try #require(
            try await social.family.enterChildMode(.init(), options: user.bearer).tokens)
        return FamilyTestStack.bearer(tokens.accessToken)
    }

    /// Call options of the child's own device in parent mode, proven with the PIN the guardian sets now.
    func parentMode(_ family: RewardFamily) async throws -> CallOptions {
        let pin = "2580"
        _ = try await social.family.setGuardianPin(
            .init(minorUserID: family.child.id, pin: pin, pinConfirmation: pin),
            options: family.guardian.bearer)
        let tokens = try #require(
            try await social.family.enterParentMode(
                .init(proof: .guardianPin(.init(minorUserID: family.child.id, pin: pin))),
                options: try await childMode(family.child)
            ).tokens)
        return FamilyTestStack.bearer(tokens.accessToken)
    }
}
