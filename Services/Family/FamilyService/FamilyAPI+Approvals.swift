import KindredAPI
import KindredMessages
import KindredRPC

// PLACEHOLDER: replaced by the helper building this part; nothing here may land.
extension FamilyAPI {
    func createApprovalRequest(_ request: Kindred_Family_V1_CreateApprovalRequestRequest, context: ServerContext) async throws -> Kindred_Family_V1_CreateApprovalRequestResponse {
        throw RPCError(.unimplemented, "CreateApprovalRequest is not built yet")
    }

    func getApprovalRequest(_ request: Kindred_Family_V1_GetApprovalRequestRequest, context: ServerContext) async throws -> Kindred_Family_V1_GetApprovalRequestResponse {
        throw RPCError(.unimplemented, "GetApprovalRequest is not built yet")
    }

    func listApprovalRequests(_ request: Kindred_Family_V1_ListApprovalRequestsRequest, context: ServerContext) async throws -> Kindred_Family_V1_ListApprovalRequestsResponse {
        throw RPCError(.unimplemented, "ListApprovalRequests is not built yet")
    }

    func decideApprovalRequest(_ request: Kindred_Family_V1_DecideApprovalRequestRequest, context: ServerContext) async throws -> Kindred_Family_V1_DecideApprovalRequestResponse {
        throw RPCError(.unimplemented, "DecideApprovalRequest is not built yet")
    }

    func watchEvents(_ request: Kindred_Family_V1_WatchEventsRequest, responses: ResponseStreamWriter<Kindred_Family_V1_Event>, context: ServerContext) async throws {
        throw RPCError(.unimplemented, "WatchEvents is not built yet")
    }
}
