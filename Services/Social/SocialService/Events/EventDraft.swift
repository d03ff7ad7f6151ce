import FoundationEssentials
import KindredHandlers
import KindredMessages
import KindredRPC

/// What a `CreateEvent` asks for, once every field is valid.
struct EventDraft: Sendable, Equatable {
    static let longestTitle = 200
    static let longestDescription = 5_000
    static let longestPlace = 200
    static let longestRequestID = 200

    let requestID: String
    let title: String
    let description: String
    let startsAt: Date
    let endsAt: Date?
    let place: String
    let isPublic: Bool
    let mature: Bool
    let media: [MediaDraft]

    /// The draft `request` makes, or INVALID_ARGUMENT naming every bad field.
    init(_ request: Kindred_Social_V1_CreateEventRequest) throws(RPCError) {
        var violations = FieldViolations()
        violations.add("request_id", Self.textProblem(request.requestID, longest: Self.longestRequestID))
        violations.add("title", Self.textProblem(request.title, longest: Self.longestTitle))
        if request.description.count > Self.longestDescription {
            violations.add("description", "must be at most \(Self.longestDescription) characters")
        }
        violations.add("place", Self.textProblem(request.place, longest: Self.longestPlace))
        let startProblem = Self.timeProblem(request.startsAt, required: true)
        violations.add("starts_at", startProblem)
        violations.add(
            "ends_at",
            Self.timeProblem(request.endsAt, required: false) ?? Self.orderProblem(request, startProblem))
        if request.visibility != .public, request.visibility != .private {
            violations.add("visibility", "must be EVENT_VISIBILITY_PUBLIC or EVENT_VISIBILITY_PRIVATE")
        }
        media = MediaDraft.parse(request.media, into: &violations)
        try violations.throwIfAny()
        requestID = request.requestID
        title = request.title
        description = request.description
        startsAt = request.startsAt!  // refused above when missing
        endsAt = request.endsAt
        place = request.place
        isPublic = request.visibility == .public
        mature = request.mature
    }

    /// Why `text` cannot be a one-line field of at most `longest` characters; nil when it can.
    static func textProblem(_ text: String, longest: Int) -> String? {
        if text.allSatisfy(\.isWhitespace) { return "is required" }
        if text.count > longest { return "must be at most \(longest) characters" }
        if text.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) {
            return "must not contain control characters"
        }
        return nil
    }

    /// Why `ends_at` cannot end a valid `starts_at`; nil when it can, or either is missing or invalid.
    private static func orderProblem(_ request: Kindred_Social_V1_CreateEventRequest, _ startProblem: String?)
        -> String?
    {
        guard startProblem == nil, let startsAt = request.startsAt, let endsAt = request.endsAt,
            endsAt < startsAt
        else { return nil }
        return "must not be before starts_at"
    }

    /// Why `time` cannot be an instant of an event; nil when it can (or may be left out and is).
    private static func timeProblem(_ time: Date?, required: Bool) -> String? {
        guard let time else { return required ? "is required" : nil }
        // Years 1 to 9999, as google.protobuf.Timestamp allows.
        guard (-62_135_596_800...253_402_300_800).contains(time.timeIntervalSince1970)
        else { return "is not a valid timestamp" }
        return nil
    }
}

/// One media item of a `CreateEvent`, once valid: an https URL and an image or video type.
struct MediaDraft: Sendable, Equatable {
    static let mostItems = 10
    static let longestURL = 2_000

    let url: String
    let contentType: String
    let flagged: Bool

    /// The items of `inputs`, recording each bad field (`media[2].url`) in `violations`.
    static func parse(_ inputs: [Kindred_Social_V1_MediaInput], into violations: inout FieldViolations)
        -> [Self]
    {
        if inputs.count > mostItems { violations.add("media", "must have at most \(mostItems) items") }
        for (index, input) in inputs.enumerated() {
            violations.add("media[\(index)].url", urlProblem(input.url))
            violations.add("media[\(index)].content_type", contentTypeProblem(input.contentType))
        }
        return inputs.map { Self(url: $0.url, contentType: $0.contentType.lowercased(), flagged: $0.flagged) }
    }

    private static func urlProblem(_ text: String) -> String? {
        if text.isEmpty { return "is required" }
        if text.count > longestURL { return "must be at most \(longestURL) characters" }
        // URL(string:) would quietly percent-encode a space; a reference the apps fetch must be exact.
        guard text.lowercased().hasPrefix("https://"),
            !text.unicodeScalars.contains(where: { $0.properties.isWhitespace || $0.value < 0x20 }),
            let url = URL(string: text),
            url.scheme?.lowercased() == "https",
            let host = url.host(), !host.isEmpty
        else { return "must be an https URL" }
        return nil
    }

    private static func contentTypeProblem(_ text: String) -> String? {
        let parts = text.lowercased().split(separator: "/", omittingEmptySubsequences: false)
        let token = { (part: Substring) in
            !part.isEmpty
                && part.utf8.allSatisfy { byte in
                    (48...57).contains(byte) || (97...122).contains(byte) || "!#$&^_.+-".utf8.contains(byte)
                }
        }
        guard parts.count == 2, parts[0] == "image" || parts[0] == "video", token(parts[1]) else {
            return "must be an image/* or video/* media type"
        }
        return nil
    }
}
