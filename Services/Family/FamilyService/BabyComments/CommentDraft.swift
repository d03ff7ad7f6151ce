import KindredHandlers
import KindredMessages
import KindredRPC

/// An `AddCommentRequest` whose fields were checked: the idempotency key, what the comment is on, and its text
/// as stored (trimmed, CR LF read as the one line break it is).
struct CommentDraft: Sendable, Equatable {
    let requestID: String
    let target: CommentTarget
    let text: String

    /// The draft `request` holds, or INVALID_ARGUMENT naming every bad field.
    init(_ request: Kindred_Family_V1_AddCommentRequest) throws(RPCError) {
        var violations = FieldViolations()
        violations.add("request_id", IdempotentCreate.requestIDProblem(request.requestID))
        let target = CommentTarget(request.target, field: "target", &violations)
        // A line break typed on Windows arrives as CR LF: kept as the one line break it is.
        text = ContentText.trimmed(request.text.replacing("\r\n", with: "\n"))
        violations.add(
            "text",
            ContentText.problem(text, limit: BabyComments.maximumLength, required: true, newlines: true))
        self.target = try violations.throwIfAny(target)
        requestID = request.requestID
    }
}
