import KindredAPI
import KindredHandlers
import KindredMessages
import KindredRPC

/// Learning points and reward apps. The child reads their own (a child-mode token too: the reads are marked
/// NO_SIDE_EFFECTS); a guardian, by family's word, or the child's device in parent mode proven with the
/// guardian PIN, reads, sets up, unlocks and locks. The child's own sign-in changes nothing (GUARDIANS_ONLY),
/// and the shared RPC layer refuses a child-mode token on every write before it gets here.
extension GamificationAPI {
    func setRewardSetup(_ request: Kindred_Gamification_V1_SetRewardSetupRequest, context: ServerContext)
        async throws -> Kindred_Gamification_V1_SetRewardSetupResponse
    {
        let me = try context.account()
        let draft = try RewardSetupDraft(request)
        let child = try await guardedChild(request.childUserID, of: me, context)
        return .init(setup: try await rewards.replaceSetup(draft, of: child, by: me))
    }

    func getRewardSetup(_ request: Kindred_Gamification_V1_GetRewardSetupRequest, context: ServerContext)
        async throws -> Kindred_Gamification_V1_GetRewardSetupResponse
    {
        let child = try await readableChild(request.childUserID, of: try context.account(), context)
        return .init(setup: try await rewards.setup(of: child))
    }

    func unlockRewardApp(_ request: Kindred_Gamification_V1_UnlockRewardAppRequest, context: ServerContext)
        async throws -> Kindred_Gamification_V1_UnlockRewardAppResponse
    {
        var violations = FieldViolations()
        violations.add("app_id", AppID.problem(request.appID))
        if !Rewards.unlockMinutes.contains(request.minutes) { violations.add("minutes", "must be 1 to 1440") }
        if !Rewards.requestIDLength.contains(request.requestID.count) {
            violations.add("request_id", "must be 1 to 100 characters")
        }
        try violations.throwIfAny()
        let child = try await guardedChild(request.childUserID, of: try context.account(), context)
        return .init(
            dashboard: try await rewards.unlock(
                request.appID, of: child, minutes: request.minutes, requestID: request.requestID))
    }

    func lockRewardApp(_ request: Kindred_Gamification_V1_LockRewardAppRequest, context: ServerContext)
        async throws -> Kindred_Gamification_V1_LockRewardAppResponse
    {
        try FieldViolations.refuse("app_id", AppID.problem(request.appID))
        let child = try await guardedChild(request.childUserID, of: try context.account(), context)
        return .init(dashboard: try await rewards.lock(request.appID, of: child))
    }

    func getChildDashboard(
        _ request: Kindred_Gamification_V1_GetChildDashboardRequest, context: ServerContext
    )
        async throws -> Kindred_Gamification_V1_GetChildDashboardResponse
    {
        let child = try await readableChild(request.childUserID, of: try context.account(), context)
        return .init(dashboard: try await rewards.dashboard(of: child))
    }

    /// The child `childUserID` names (`me` when empty), parsed once, if `me` is the child or their guardian;
    /// anyone else gets what an id nobody has gets.
    private func readableChild(_ childUserID: String, of me: UserID, _ context: ServerContext) async throws
        -> UserID
    {
        let child = try Rewards.child(named: childUserID) ?? me
        _ = try await rewards.standing(of: me, toward: child, context)
        return child
    }

    /// The child `childUserID` names (`me` when empty), parsed once, if `me` acts as their guardian; the child's
    /// own sign-in gets GUARDIANS_ONLY, anyone else what an id nobody has gets.
    private func guardedChild(_ childUserID: String, of me: UserID, _ context: ServerContext) async throws
        -> UserID
    {
        let child = try Rewards.child(named: childUserID) ?? me
        guard try await rewards.standing(of: me, toward: child, context) == .guardian else {
            throw GamificationError.guardiansOnly
        }
        return child
    }
}
