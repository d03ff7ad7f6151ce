import KindredHandlers
import KindredMessages
import KindredRPC

/// A `ListCommentsRequest` whose fields were checked: what the comments are on, and the page asked for.
struct CommentQuery: Sendable {
    let target: CommentTarget
    let page: ContentPage<CommentID>

    /// The query `request` holds, or INVALID_ARGUMENT naming every bad field.
    init(_ request: Kindred_Family_V1_ListCommentsRequest) throws(RPCError) {
        var violations = FieldViolations()
        let target = CommentTarget(request.target, field: "target", &violations)
        page = ContentPage(request.page, list: "comments", keyFields: 1, &violations) { CommentID($0[0]) }
        self.target = try violations.throwIfAny(target)
    }
}
