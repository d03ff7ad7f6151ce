import KindredAPI
import KindredMessages
import KindredRPC

// PLACEHOLDER: replaced by the helper building this part; nothing here may land.
extension FamilyAPI {
    func inviteGuardian(_ request: Kindred_Family_V1_InviteGuardianRequest, context: ServerContext) async throws -> Kindred_Family_V1_InviteGuardianResponse {
        throw RPCError(.unimplemented, "InviteGuardian is not built yet")
    }

    func acceptGuardianInvitation(_ request: Kindred_Family_V1_AcceptGuardianInvitationRequest, context: ServerContext) async throws -> Kindred_Family_V1_AcceptGuardianInvitationResponse {
        throw RPCError(.unimplemented, "AcceptGuardianInvitation is not built yet")
    }

    func listGuardianLinks(_ request: Kindred_Family_V1_ListGuardianLinksRequest, context: ServerContext) async throws -> Kindred_Family_V1_ListGuardianLinksResponse {
        throw RPCError(.unimplemented, "ListGuardianLinks is not built yet")
    }

    func removeGuardianLink(_ request: Kindred_Family_V1_RemoveGuardianLinkRequest, context: ServerContext) async throws -> Kindred_Family_V1_RemoveGuardianLinkResponse {
        throw RPCError(.unimplemented, "RemoveGuardianLink is not built yet")
    }
}
