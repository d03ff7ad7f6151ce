import KindredAPI
import KindredMessages
import KindredRPC

// PLACEHOLDER: replaced by the helper building this part; nothing here may land.
extension FamilyAPI {
    func enterChildMode(_ request: Kindred_Family_V1_EnterChildModeRequest, context: ServerContext) async throws -> Kindred_Family_V1_EnterChildModeResponse {
        throw RPCError(.unimplemented, "EnterChildMode is not built yet")
    }

    func enterParentMode(_ request: Kindred_Family_V1_EnterParentModeRequest, context: ServerContext) async throws -> Kindred_Family_V1_EnterParentModeResponse {
        throw RPCError(.unimplemented, "EnterParentMode is not built yet")
    }
}
