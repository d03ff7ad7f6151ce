import KindredAPI
import KindredHandlers
import KindredMessages
import KindredRPC

/// Learning points and reward apps. The child reads their own (a child-mode token too: the reads are marked
/// NO_SIDE_EFFECTS), unlocks and locks with a full token; a guardian, by family's word, reads, sets up, unlocks
/// and locks. The shared RPC layer refuses a child-mode token on every write before it gets here.
extension GamificationAPI {
    func setRewardSetup(_ request: Kindred_Gamification_V1_SetRewardSetupRequest, context: ServerContext)
        async throws -> Kindred_Gamification_V1_SetRewardSetupResponse
    {
        let me = try context.account()
        // The setup is always a guardian's of a child named: never the caller's own.
        try FieldViolations.require(["child_user_id": request.childUserID])
        let draft = try RewardSetupDraft(request)
        let (child, standing) = try await rewards.standing(
            of: me, toward: request.childUserID, forwarding: context.requestMetadata)
        guard standing == .guardian else { throw GamificationError.guardiansOnly }
        return .init(setup: try await rewards.replaceSetup(draft, of: child, by: me))
    }

    func getRewardSetup(_ request: Kindred_Gamification_V1_GetRewardSetupRequest, context: ServerContext)
        async throws -> Kindred_Gamification_V1_GetRewardSetupResponse
    {
        let (child, _) = try await rewards.standing(
            of: try context.account(), toward: request.childUserID, forwarding: context.requestMetadata)
        return .init(setup: try await rewards.setup(of: child))
    }

    func unlockRewardApp(_ request: Kindred_Gamification_V1_UnlockRewardAppRequest, context: ServerContext)
        async throws -> Kindred_Gamification_V1_UnlockRewardAppResponse
    {
        let me = try context.account()
        var violations = FieldViolations()
        violations.add("app_id", AppID.problem(request.appID))
        if !Rewards.unlockMinutes.contains(request.minutes) { violations.add("minutes", "must be 1 to 1440") }
        if !Rewards.requestIDLength.contains(request.requestID.count) {
            violations.add("request_id", "must be 1 to 100 characters")
        }
        try violations.throwIfAny()
        let (child, _) = try await rewards.standing(
            of: me, toward: request.childUserID, forwarding: context.requestMetadata)
        return .init(
            dashboard: try await rewards.unlock(
                request.appID, of: child, minutes: request.minutes, requestID: request.requestID))
    }

    func lockRewardApp(_ request: Kindred_Gamification_V1_LockRewardAppRequest, context: ServerContext)
        async throws -> Kindred_Gamification_V1_LockRewardAppResponse
    {
        let me = try context.account()
        try FieldViolations.refuse("app_id", AppID.problem(request.appID))
        let (child, _) = try await rewards.standing(
            of: me, toward: request.childUserID, forwarding: context.requestMetadata)
        return .init(dashboard: try await rewards.lock(request.appID, of: child))
    }

    func getChildDashboard(
        _ request: Kindred_Gamification_V1_GetChildDashboardRequest, context: ServerContext
    )
        async throws -> Kindred_Gamification_V1_GetChildDashboardResponse
    {
        let (child, _) = try await rewards.standing(
            of: try context.account(), toward: request.childUserID, forwarding: context.requestMetadata)
        return .init(dashboard: try await rewards.dashboard(of: child))
    }
}
