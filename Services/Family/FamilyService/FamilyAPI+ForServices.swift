import KindredAPI
import KindredHandlers
import KindredMessages
import KindredRPC

/// RPCs other services call with their own token: `GetBabyMembership`, gamification's check before a vote,
/// a suggestion or a reveal (membership is always asked of family, never assumed), and `SharesBabyProfile`,
/// its check before showing one user's activity counters to another.
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

    func sharesBabyProfile(
        _ request: Kindred_Family_V1_SharesBabyProfileRequest, context: ServerContext
    ) async throws -> Kindred_Family_V1_SharesBabyProfileResponse {
        _ = try context.authenticatedCaller(as: .service)
        var violations = FieldViolations()
        let user: UserID? = violations.id("user_id", request.userID)
        let other: UserID? = violations.id("other_user_id", request.otherUserID)
        let (userID, otherID) = try violations.throwIfAny(user, other)
        return .init(shared: try await babyProfiles.membership.share(userID, with: otherID))
    }
}
