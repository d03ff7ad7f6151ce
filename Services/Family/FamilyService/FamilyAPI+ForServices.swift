import KindredAPI
import KindredHandlers
import KindredMessages
import KindredRPC

/// RPCs other services call with their own token: `GetBabyMembership`, gamification's check before a vote,
/// a suggestion or a reveal (membership is always asked of family, never assumed).
extension FamilyAPI {
    func getBabyMembership(
        _ request: Kindred_Family_V1_GetBabyMembershipRequest, context: ServerContext
    ) async throws -> Kindred_Family_V1_GetBabyMembershipResponse {
        _ = try context.authenticatedCaller(as: .service)
        var violations = FieldViolations()
        let profile: BabyProfileID? = violations.id("profile_id", request.profileID)
        let user: UserID? = violations.id("user_id", request.userID)
        let (profileID, userID) = try violations.throwIfAny(profile, user)
        let role = try await babyProfiles.membership.role(of: userID, in: profileID)
        return Kindred_Family_V1_GetBabyMembershipResponse(role: role?.proto ?? .unspecified)
    }
}
