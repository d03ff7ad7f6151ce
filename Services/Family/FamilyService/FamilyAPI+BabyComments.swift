import KindredAPI
import KindredHandlers
import KindredMessages
import KindredRPC

/// Comments on a baby profile's content: `AddComment`, `ListComments`, `DeleteComment`.
extension FamilyAPI {
    func addComment(_ request: Kindred_Family_V1_AddCommentRequest, context: ServerContext) async throws
        -> Kindred_Family_V1_AddCommentResponse
    {
        let author = try context.authenticatedCaller().account()
        let comment = try await comments.add(try CommentDraft(request), by: author)
        return Kindred_Family_V1_AddCommentResponse(comment: comment)
    }

    func listComments(_ request: Kindred_Family_V1_ListCommentsRequest, context: ServerContext) async throws
        -> Kindred_Family_V1_ListCommentsResponse
    {
        let reader = try context.authenticatedCaller().account()
        return try await comments.list(try CommentQuery(request), readBy: reader)
    }

    func deleteComment(_ request: Kindred_Family_V1_DeleteCommentRequest, context: ServerContext) async throws
        -> Kindred_Family_V1_DeleteCommentResponse
    {
        let caller = try context.authenticatedCaller().account()
        let (profile, comment): (BabyProfileID, CommentID) = try FieldViolations.ids(
            ("profile_id", request.profileID), ("comment_id", request.commentID))
        try await comments.delete(comment, on: profile, by: caller)
        return Kindred_Family_V1_DeleteCommentResponse()
    }
}
