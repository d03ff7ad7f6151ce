import KindredAPI
import KindredHandlers
import KindredMessages
import KindredRPC

/// `InviteGuardian`, `AcceptGuardianInvitation`, `ListGuardianLinks` and `RemoveGuardianLink`.
extension FamilyAPI {
    func inviteGuardian(
        _ request: Kindred_Family_V1_InviteGuardianRequest, context: ServerContext
    ) async throws -> Kindred_Family_V1_InviteGuardianResponse {
        let invitation = try await guardians.invite(
            email: request.guardianEmail, requestID: request.requestID, as: try context.authenticatedCaller())
        return Kindred_Family_V1_InviteGuardianResponse(invitation: invitation.proto)
    }

    func acceptGuardianInvitation(
        _ request: Kindred_Family_V1_AcceptGuardianInvitationRequest, context: ServerContext
    ) async throws -> Kindred_Family_V1_AcceptGuardianInvitationResponse {
        let link = try await guardians.accept(token: request.token, as: try context.authenticatedCaller())
        return Kindred_Family_V1_AcceptGuardianInvitationResponse(link: link.proto)
    }

    func listGuardianLinks(
        _ request: Kindred_Family_V1_ListGuardianLinksRequest, context: ServerContext
    ) async throws -> Kindred_Family_V1_ListGuardianLinksResponse {
        let (links, pending) = try await guardians.links(of: try context.authenticatedCaller())
        return Kindred_Family_V1_ListGuardianLinksResponse(
            links: links.map(\.proto), pendingInvitations: pending.map(\.proto))
    }

    func removeGuardianLink(
        _ request: Kindred_Family_V1_RemoveGuardianLinkRequest, context: ServerContext
    ) async throws -> Kindred_Family_V1_RemoveGuardianLinkResponse {
        let caller = try context.authenticatedCaller()
        try await guardians.remove(link: try FieldViolations.id("link_id", request.linkID), as: caller)
        return Kindred_Family_V1_RemoveGuardianLinkResponse()
    }
}
