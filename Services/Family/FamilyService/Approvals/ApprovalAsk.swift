import KindredHandlers
import KindredMessages
import KindredRPC

/// What a `CreateApprovalRequest` asks for, once every field is valid.
struct ApprovalAsk: Sendable, Equatable {
    /// The most characters a subject id or a summary may have.
    static let longestText = 200

    let minorID: UserID
    let kind: ApprovalRecord.Kind
    let subjectID: String
    let summary: String

    /// The ask `request` makes, or INVALID_ARGUMENT naming every bad field.
    init(_ request: Kindred_Family_V1_CreateApprovalRequestRequest) throws(RPCError) {
        var violations = FieldViolations()
        let minorID: UserID? = violations.id("minor_user_id", request.minorUserID)
        let kind = ApprovalRecord.Kind(request.kind)
        if kind == nil {
            violations.add("kind", "must be APPROVAL_KIND_JOIN_EVENT or APPROVAL_KIND_VIEW_FLAGGED_MEDIA")
        }
        violations.add("subject_id", Self.textProblem(request.subjectID))
        violations.add("summary", Self.textProblem(request.summary))
        self.minorID = try violations.throwIfAny(minorID)
        self.kind = kind!  // nil was refused above
        subjectID = request.subjectID
        summary = request.summary
    }

    /// Why `text` cannot be a subject id or a summary: blank, too long, or holding a control character (a
    /// summary is one line shown to a guardian; neither may break a log line).
    private static func textProblem(_ text: String) -> String? {
        if text.allSatisfy(\.isWhitespace) { return "is required" }
        if text.count > longestText { return "must be at most \(longestText) characters" }
        if text.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) {
            return "must not contain control characters"
        }
        return nil
    }
}
