import KindredHandlers
import KindredMessages
import KindredRPC

/// What a `CreateApprovalRequest` asks for, once every field is valid.
struct ApprovalAsk: Sendable, Equatable {
    /// The most characters a subject id or a summary may have.
    static let longestText = 200

    let minorID: String
    let kind: ApprovalRecord.Kind
    let subjectID: String
    let summary: String

    /// The ask `request` makes, or INVALID_ARGUMENT naming every bad field.
    init(_ request: Kindred_Family_V1_CreateApprovalRequestRequest) throws(RPCError) {
        var violations = FieldViolations()
        violations.add("minor_user_id", Self.idProblem(request.minorUserID, "a user id"))
        let kind = ApprovalRecord.Kind(request.kind)
        if kind == nil {
            violations.add("kind", "must be APPROVAL_KIND_JOIN_EVENT or APPROVAL_KIND_VIEW_FLAGGED_MEDIA")
        }
        violations.add("subject_id", Self.textProblem(request.subjectID))
        violations.add("summary", Self.textProblem(request.summary))
        try violations.throwIfAny()
        minorID = request.minorUserID.lowercased()
        self.kind = kind!  // nil was refused above
        subjectID = request.subjectID
        summary = request.summary
    }

    /// Refuses `approvalID` unless it is a UUID, as every approval's id is.
    static func requireApprovalID(_ approvalID: String) throws(RPCError) {
        try FieldViolations.refuse("approval_id", idProblem(approvalID, "an approval id"))
    }

    /// Why `id` cannot be `what` (a UUID); nil when it can.
    private static func idProblem(_ id: String, _ what: String) -> String? {
        if id.isEmpty { return "is required" }
        return UUIDv7.isWellFormed(id) ? nil : "must be \(what) (a UUID)"
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
