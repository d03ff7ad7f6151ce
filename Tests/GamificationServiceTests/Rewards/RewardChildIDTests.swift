import KindredAPI
import KindredMessages
import KindredRPC
import KindredTestSupport
@testable import ServiceTestSupport
import Testing

/// The child the reward RPCs name (`child_user_id`), parsed once by their handlers after the token: any case of
/// a UUID names the child, anything else is INVALID_ARGUMENT naming the field, and without a token it is
/// UNAUTHENTICATED whatever the id.
@Suite struct RewardChildIDTests {
    /// Every reward RPC naming `child` with `options`, each answering what it threw.
    static func calls(_ stack: GamificationTestStack, child: String, options: CallOptions) async
        -> [RPCError?]
    {
        let gamification = stack.gamification
        return [
            await rpcError {
                try await gamification.setRewardSetup(
                    .init(
                        childUserID: child, apps: [.init(appID: "minecraft", kind: .reward)],
                        pointsPerLearningMinute: 1, pointsPerRewardMinute: 1),
                    options: options)
            },
            await rpcError {
                try await gamification.getRewardSetup(.init(childUserID: child), options: options)
            },
            await rpcError {
                try await gamification.unlockRewardApp(
                    .init(childUserID: child, appID: "minecraft", minutes: 5, requestID: "u-1"),
                    options: options)
            },
            await rpcError {
                try await gamification.lockRewardApp(
                    .init(childUserID: child, appID: "minecraft"), options: options)
            },
            await rpcError {
                try await gamification.getChildDashboard(.init(childUserID: child), options: options)
            },
        ]
    }

    @Test func theChildsIdIsParsedAtTheEdgeAfterTheToken() async throws {
        try await GamificationTestStack.with { stack in
            let family = try await stack.childWithGuardian("kit")
            let malformed = await Self.calls(stack, child: "kit", options: family.guardian.bearer)
            #expect(
                malformed.allSatisfy { $0?.code == .invalidArgument && $0?.badFields == ["child_user_id"] })
            let anonymous = await Self.calls(stack, child: "kit", options: FamilyTestStack.bearer(nil))
            #expect(anonymous.allSatisfy { $0?.code == .unauthenticated })

            let shouted = family.child.id.uppercased()
            try await stack.setUp(family, learning: ["duolingo"], reward: ["minecraft"])
            let read = try await stack.gamification.getRewardSetup(
                .init(childUserID: shouted), options: family.guardian.bearer)
            #expect(read.setup?.apps.map(\.appID).sorted() == ["duolingo", "minecraft"])
            let dashboard = try await stack.gamification.getChildDashboard(
                .init(childUserID: shouted), options: family.guardian.bearer)
            #expect(dashboard.dashboard != nil)
        }
    }
}
