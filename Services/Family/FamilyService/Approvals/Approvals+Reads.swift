import KindredAuth
import KindredHandlers
import KindredMessages
import KindredPostgres

/// `GetApprovalRequest` and `ListApprovalRequests`.
extension Approvals {
    /// Request `approvalID`, for its minor, their guardians and services; NOT_FOUND for anyone else, who may
    /// not learn that it exists.
    func approval(_ approvalID: ApprovalID, as caller: Caller) async throws -> ApprovalRecord {
        let viewer = caller.role == .service ? nil : caller.accountUserID
        guard let found = try await ApprovalStore.approval(id: approvalID, viewer: viewer, on: database),
            found.viewerGuards || caller.role == .service || found.record.minorID == caller.accountUserID
        else { throw FamilyError.approvalNotFound }
        return found.record
    }

    /// The caller's own requests and those of every minor they guard, newest first, a page at a time. Users
    /// only: a service has no requests of its own (it reads one with `approval(_:as:)`).
    func list(_ request: Kindred_Family_V1_ListApprovalRequestsRequest, as caller: Caller) async throws
        -> (approvals: [ApprovalRecord], nextPageToken: String)
    {
        let page = try ApprovalPage(request)
        guard let viewer = caller.accountUserID else { return ([], "") }
        var approvals = try await ApprovalStore.list(for: viewer, page, on: database)
        guard approvals.count > page.size else { return (approvals, "") }
        approvals.removeLast(approvals.count - page.size)
        return (approvals, page.nextToken(after: approvals[approvals.count - 1].id))
    }
}
