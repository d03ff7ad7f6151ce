import KindredAPI
import KindredMessages
import KindredRPC

// PLACEHOLDER: replaced by the helper building this part; nothing here may land.
extension FamilyAPI {
    func getParentalControls(_ request: Kindred_Family_V1_GetParentalControlsRequest, context: ServerContext) async throws -> Kindred_Family_V1_GetParentalControlsResponse {
        throw RPCError(.unimplemented, "GetParentalControls is not built yet")
    }

    func updateParentalControls(_ request: Kindred_Family_V1_UpdateParentalControlsRequest, context: ServerContext) async throws -> Kindred_Family_V1_UpdateParentalControlsResponse {
        throw RPCError(.unimplemented, "UpdateParentalControls is not built yet")
    }
}
