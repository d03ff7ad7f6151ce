import KindredAPI
import KindredHandlers
import KindredMessages
import KindredRPC

/// `InviteToBabyProfile`, `ListBabyProfileInvitations`, `ResendBabyProfileInvitation`,
/// `RevokeBabyProfileInvitation` and `AcceptBabyProfileInvitation`.
extension FamilyAPI {
    func inviteToBabyProfile(
        _ request: Kindred_Family_V1_InviteToBabyProfileRequest, context: ServerContext
    ) async throws -> Kindred_Family_V1_InviteToBabyProfileResponse {
        let owner = try context.authenticatedCaller().account()
        let invitation = try await babyProfiles.invite(try BabyInvitationDraft(request), by: owner)
        return Kindred_Family_V1_InviteToBabyProfileResponse(
            invitation: invitation.proto(at: self.context.clock.now))
    }

    func listBabyProfileInvitations(
        _ request: Kindred_Family_V1_ListBabyProfileInvitationsRequest, context: ServerContext
    ) async throws -> Kindred_Family_V1_ListBabyProfileInvitationsResponse {
        let owner = try context.authenticatedCaller().account()
        return try await babyProfiles.invitations(
            of: try FieldViolations.id("profile_id", request.profileID), page: request.page, by: owner)
    }

    func resendBabyProfileInvitation(
        _ request: Kindred_Family_V1_ResendBabyProfileInvitationRequest, context: ServerContext
    ) async throws -> Kindred_Family_V1_ResendBabyProfileInvitationResponse {
        let owner = try context.authenticatedCaller().account()
        let (profile, invitation) = try Self.invitationIDs(request.profileID, request.invitationID)
        let resent = try await babyProfiles.resend(invitation, of: profile, by: owner)
        return Kindred_Family_V1_ResendBabyProfileInvitationResponse(
            invitation: resent.proto(at: self.context.clock.now))
    }

    func revokeBabyProfileInvitation(
        _ request: Kindred_Family_V1_RevokeBabyProfileInvitationRequest, context: ServerContext
    ) async throws -> Kindred_Family_V1_RevokeBabyProfileInvitationResponse {
        let owner = try context.authenticatedCaller().account()
        let (profile, invitation) = try Self.invitationIDs(request.profileID, request.invitationID)
        let revoked = try await babyProfiles.revoke(invitation, of: profile, by: owner)
        return Kindred_Family_V1_RevokeBabyProfileInvitationResponse(
            invitation: revoked.proto(at: self.context.clock.now))
    }

    func acceptBabyProfileInvitation(
        _ request: Kindred_Family_V1_AcceptBabyProfileInvitationRequest, context: ServerContext
    ) async throws -> Kindred_Family_V1_AcceptBabyProfileInvitationResponse {
        let user = try context.authenticatedCaller().account()
        let profile = try await babyProfiles.accept(
            token: request.token, relationship: request.relationship, other: request.relationshipOther,
            by: user)
        return Kindred_Family_V1_AcceptBabyProfileInvitationResponse(profile: profile.proto)
    }

    /// The profile and invitation ids a request names, or INVALID_ARGUMENT naming each bad one.
    private static func invitationIDs(_ profile: String, _ invitation: String) throws(RPCError)
        -> (BabyProfileID, BabyInvitationID)
    {
        try FieldViolations.ids(("profile_id", profile), ("invitation_id", invitation))
    }
}
