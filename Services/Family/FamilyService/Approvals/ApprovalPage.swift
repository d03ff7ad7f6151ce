import KindredHandlers
import KindredMessages
import KindredRPC

/// Which `ListApprovalRequests` page to serve. The page token (`Paging`) carries the state filter it was made
/// for and the id of the last request served: ids are UUIDv7, so "older than that id" continues newest first
/// right after the previous page whatever was created since, and a token cannot be replayed with another
/// filter.
struct ApprovalPage: Sendable, Equatable {
    /// Only requests in this state; nil for every state.
    let state: ApprovalRecord.State?
    /// Serve requests older than this one; nil for the first page.
    let before: ApprovalID?
    let size: Int

    /// The page `request` asks for, or INVALID_ARGUMENT naming every bad field.
    init(_ request: Kindred_Family_V1_ListApprovalRequestsRequest) throws(RPCError) {
        var violations = FieldViolations()
        let state = ApprovalRecord.State(request.state)
        if state == nil, request.state != .unspecified {
            violations.add("state", "is not an approval state")
        }
        self.state = state
        size = Paging.size(of: request.page, &violations)
        let token = request.page?.pageToken ?? ""
        before = token.isEmpty ? nil : Self.decode(token, state: state)
        if !token.isEmpty, before == nil {
            violations.add("page.page_token", "is not a page token of this list")
        }
        try violations.throwIfAny()
    }

    /// The token of the page after the one ending with `lastID`.
    func nextToken(after lastID: ApprovalID) -> String {
        Paging.token(Self.filterName(state), lastID.description)
    }

    private static func decode(_ token: String, state: ApprovalRecord.State?) -> ApprovalID? {
        guard let fields = Paging.fields(of: token, count: 2), fields[0] == filterName(state) else {
            return nil
        }
        return ApprovalID(fields[1])
    }

    private static func filterName(_ state: ApprovalRecord.State?) -> String {
        state.map { String($0.rawValue) } ?? "any"
    }
}
