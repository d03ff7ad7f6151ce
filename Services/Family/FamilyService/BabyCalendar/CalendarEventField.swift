import FoundationEssentials
import KindredHandlers
import KindredMessages

/// What an owner writes of a calendar event.
struct CalendarEventDetails: Sendable, Equatable {
    var name = ""
    var startAt = Date(timeIntervalSince1970: 0)
    var timeZone = ""
    var description = ""
    /// A gallery photo's id, kept unchecked until the gallery exists.
    var photoID: PhotoID?
    var videoCallURL = ""
    var location = ""
}

/// A field of a calendar event an owner sets, named in `update_mask` by its proto name.
enum CalendarEventField: String, ContentField {
    case name
    case startTime = "start_time"
    case timeZone = "time_zone"
    case description
    case photoID = "photo_id"
    case videoCallURL = "video_call_url"
    case location

    /// Starts earlier or later than this are typing mistakes, not events.
    static let plausibleStarts =
        Date(timeIntervalSince1970: 946_684_800)...Date(timeIntervalSince1970: 4_102_444_800)

    /// The values of `fields` in `event`, trimmed, over `base`; each refused one is recorded as
    /// `event.<field>`. `zones` are the time zone names an event may have.
    static func details(
        _ fields: [CalendarEventField], of event: Kindred_Family_V1_CalendarEvent,
        over base: CalendarEventDetails,
        zones: Set<String>, _ violations: inout FieldViolations
    ) -> CalendarEventDetails {
        var details = base
        for field in fields {
            violations.add("event.\(field.rawValue)", field.copy(from: event, into: &details, zones: zones))
        }
        return details
    }

    /// Copies this field of `event` into `details`; why it cannot be stored, or nil.
    private func copy(
        from event: Kindred_Family_V1_CalendarEvent, into details: inout CalendarEventDetails,
        zones: Set<String>
    ) -> String? {
        switch self {
        case .name:
            details.name = ContentText.trimmed(event.name)
            return ContentText.problem(details.name, limit: 100, required: true)
        case .startTime:
            guard let start = event.startTime else { return "is required" }
            guard Self.plausibleStarts.contains(start) else {
                return "must be between the years 2000 and 2099"
            }
            details.startAt = start
        case .timeZone:
            details.timeZone = event.timeZone
            guard !event.timeZone.isEmpty else { return "is required" }
            guard zones.contains(event.timeZone) else {
                return "must be an IANA time zone name, such as Europe/Paris"
            }
        case .description:
            details.description = ContentText.trimmed(event.description)
            return ContentText.problem(details.description, limit: 500, required: false)
        case .photoID:
            details.photoID = nil
            guard !event.photoID.isEmpty else { return nil }
            guard let photo = PhotoID(event.photoID) else { return "is not a valid id" }
            details.photoID = photo
        case .videoCallURL:
            details.videoCallURL = event.videoCallURL
            return ContentText.httpsLinkProblem(event.videoCallURL)
        case .location:
            details.location = ContentText.trimmed(event.location)
            return ContentText.problem(details.location, limit: 200, required: false)
        }
        return nil
    }
}
