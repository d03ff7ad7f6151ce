import KindredHandlers
import KindredMessages
import KindredRPC

/// A `ListFollowersRequest` or `ListFollowingRequest` whose fields were checked: whose list it names and the
/// page of it asked for.
struct FollowListDraft: Sendable, Equatable {
    /// The user whose list it is: `user_id`, or the caller when it is empty.
    let owner: UserID
    /// The caller's own `list`, since nobody reads another's.
    let page: GraphPage

    /// The draft of a request's `user_id` and `page`, asked by `me`, or INVALID_ARGUMENT naming every bad field
    /// (a malformed `user_id` and a bad page size or token in one answer).
    init(_ list: GraphPage.List, of userID: String, _ page: Kindred_Common_V1_PageRequest?, as me: UserID)
        throws(RPCError)
    {
        var violations = FieldViolations()
        let owner = userID.isEmpty ? me : violations.id("user_id", userID)
        self.page = GraphPage(list, of: me, page, &violations)
        self.owner = try violations.throwIfAny(owner)
    }
}
