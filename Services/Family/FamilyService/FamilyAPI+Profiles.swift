import KindredAPI
import KindredMessages
import KindredRPC

// PLACEHOLDER: replaced by the helper building this part; nothing here may land.
extension FamilyAPI {
    func getProfile(_ request: Kindred_Family_V1_GetProfileRequest, context: ServerContext) async throws -> Kindred_Family_V1_GetProfileResponse {
        throw RPCError(.unimplemented, "GetProfile is not built yet")
    }

    func updateProfile(_ request: Kindred_Family_V1_UpdateProfileRequest, context: ServerContext) async throws -> Kindred_Family_V1_UpdateProfileResponse {
        throw RPCError(.unimplemented, "UpdateProfile is not built yet")
    }
}
