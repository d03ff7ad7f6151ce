import KindredAPI
import KindredHandlers
import KindredMessages
import KindredRPC

/// Guardian approvals (`CreateApprovalRequest`, `GetApprovalRequest`, `ListApprovalRequests`,
/// `DecideApprovalRequest`) and `WatchEvents`, which serves their decisions to services.
extension FamilyAPI {
    func createApprovalRequest(
        _ request: Kindred_Family_V1_CreateApprovalRequestRequest, context: ServerContext
    ) async throws -> Kindred_Family_V1_CreateApprovalRequestResponse {
        let caller = try context.authenticatedCaller()
        let approval = try await approvals.create(try ApprovalAsk(request), as: caller)
        return Kindred_Family_V1_CreateApprovalRequestResponse(approval: approval.proto)
    }

    func getApprovalRequest(
        _ request: Kindred_Family_V1_GetApprovalRequestRequest, context: ServerContext
    ) async throws -> Kindred_Family_V1_GetApprovalRequestResponse {
        let caller = try context.authenticatedCaller()
        let approval = try await approvals.approval(
            try FieldViolations.id("approval_id", request.approvalID), as: caller)
        return Kindred_Family_V1_GetApprovalRequestResponse(approval: approval.proto)
    }

    func listApprovalRequests(
        _ request: Kindred_Family_V1_ListApprovalRequestsRequest, context: ServerContext
    ) async throws -> Kindred_Family_V1_ListApprovalRequestsResponse {
        let found = try await approvals.list(request, as: try context.authenticatedCaller(as: .user, .admin))
        return Kindred_Family_V1_ListApprovalRequestsResponse(
            approvals: found.approvals.map(\.proto),
            page: Kindred_Common_V1_PageResponse(nextPageToken: found.nextPageToken))
    }

    func decideApprovalRequest(
        _ request: Kindred_Family_V1_DecideApprovalRequestRequest, context: ServerContext
    ) async throws -> Kindred_Family_V1_DecideApprovalRequestResponse {
        let caller = try context.authenticatedCaller()
        let approval = try await approvals.decide(
            try FieldViolations.id("approval_id", request.approvalID), approve: request.approve, as: caller)
        return Kindred_Family_V1_DecideApprovalRequestResponse(approval: approval.proto)
    }

    func watchEvents(
        _ request: Kindred_Family_V1_WatchEventsRequest,
        responses: ResponseStreamWriter<Kindred_Family_V1_Event>,
        context: ServerContext
    ) async throws {
        try await events.serveWatch(
            after: request.afterCursor, context: context, domain: FamilyError.domain, write: responses.write)
    }
}
