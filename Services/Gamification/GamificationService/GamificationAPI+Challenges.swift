import KindredAPI
import KindredHandlers
import KindredMessages
import KindredRPC

/// Challenges: creating, inviting, answering, listing, forfeiting, and what a device enforces now. A person
/// only: a service token takes part in nothing.
extension GamificationAPI {
    func createChallenge(_ request: Kindred_Gamification_V1_CreateChallengeRequest, context: ServerContext)
        async throws -> Kindred_Gamification_V1_CreateChallengeResponse
    {
        let me = try context.account()
        return .init(challenge: try await challenges.create(try ChallengeDraft(request), by: me).proto)
    }

    func inviteToChallenge(
        _ request: Kindred_Gamification_V1_InviteToChallengeRequest, context: ServerContext
    )
        async throws -> Kindred_Gamification_V1_InviteToChallengeResponse
    {
        let me = try context.account()
        var violations = FieldViolations()
        let challenge: ChallengeID? = violations.id("challenge_id", request.challengeID)
        let invitee: UserID? = violations.id("user_id", request.userID)
        let (challengeID, inviteeID) = try violations.throwIfAny(challenge, invitee)
        try await challenges.invite(inviteeID, to: challengeID, by: me)
        return .init()
    }

    func respondToChallengeInvitation(
        _ request: Kindred_Gamification_V1_RespondToChallengeInvitationRequest, context: ServerContext
    ) async throws -> Kindred_Gamification_V1_RespondToChallengeInvitationResponse {
        let me = try context.account()
        let id: ChallengeID = try FieldViolations.id("challenge_id", request.challengeID)
        return .init(challenge: try await challenges.respond(to: id, as: me, accept: request.accept).proto)
    }

    func listChallenges(_ request: Kindred_Gamification_V1_ListChallengesRequest, context: ServerContext)
        async throws -> Kindred_Gamification_V1_ListChallengesResponse
    {
        let me = try context.account()
        var violations = FieldViolations()
        let states = Challenges.states(of: request.list)
        if states == nil { violations.add("list", "must be active, invitations or finished") }
        let page = ChallengePage(of: "\(request.list.rawValue)", request.page, &violations)
        return try await challenges.list(of: me, states: try violations.throwIfAny(states), page: page)
    }

    func forfeitChallenge(_ request: Kindred_Gamification_V1_ForfeitChallengeRequest, context: ServerContext)
        async throws -> Kindred_Gamification_V1_ForfeitChallengeResponse
    {
        let me = try context.account()
        let id: ChallengeID = try FieldViolations.id("challenge_id", request.challengeID)
        let settled = try await challenges.forfeit(id, as: me)
        return .init(coinsDeducted: -settled.coins, balance: settled.balance)
    }

    func getActiveRestrictions(
        _ request: Kindred_Gamification_V1_GetActiveRestrictionsRequest, context: ServerContext
    ) async throws -> Kindred_Gamification_V1_GetActiveRestrictionsResponse {
        .init(restrictions: try await challenges.restrictions(of: try context.account()).map(\.proto))
    }
}
