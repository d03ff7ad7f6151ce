import KindredHandlers
import KindredMessages
import KindredRPC

/// What a `ReportContent` reports, once every field is valid.
struct ContentReport: Sendable, Equatable {
    /// What can be reported; the numbers are `kindred.social.v1.ContentKind`'s, as `social.report_tallies`
    /// holds them.
    enum Kind: Int32, Sendable {
        case user = 1
        case message = 2
        case event = 3
        case media = 4

        /// The kind as the API and the `content.reported` event name it.
        var proto: Kindred_Social_V1_ContentKind { Kindred_Social_V1_ContentKind(rawValue: rawValue) }
    }

    /// The most characters a reason may have.
    static let longestReason = 500

    let kind: Kind
    /// Lower-case, as every id social stores and compares.
    let contentID: ContentID
    let reason: String

    /// The report `request` makes, or INVALID_ARGUMENT naming every bad field.
    init(_ request: Kindred_Social_V1_ReportContentRequest) throws(RPCError) {
        var violations = FieldViolations()
        // UNSPECIFIED and values from newer clients have no raw value here.
        let kind = Kind(rawValue: request.contentKind.rawValue)
        if kind == nil { violations.add("content_kind", "must be USER, MESSAGE, EVENT or MEDIA") }
        let contentID: ContentID? = violations.id("content_id", request.contentID)
        violations.add("reason", Self.reasonProblem(request.reason))
        try violations.throwIfAny()
        self.kind = kind!  // nil was refused above
        self.contentID = contentID!  // nil was refused above
        reason = request.reason
    }

    /// Why `reason` cannot be one: blank, too long, or holding a control character other than a line break or
    /// a tab (it is written into a guardian's email and a moderator's queue).
    private static func reasonProblem(_ reason: String) -> String? {
        if reason.allSatisfy(\.isWhitespace) { return "is required" }
        if reason.count > longestReason { return "must be at most \(longestReason) characters" }
        if reason.unicodeScalars.contains(where: isForbiddenInReason) {
            return "must not contain control characters"
        }
        return nil
    }

    private static func isForbiddenInReason(_ scalar: Unicode.Scalar) -> Bool {
        scalar.properties.generalCategory == .control && !"\n\r\t".unicodeScalars.contains(scalar)
    }
}
