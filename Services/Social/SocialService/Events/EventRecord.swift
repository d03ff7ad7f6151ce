import FoundationEssentials
import KindredHandlers
import KindredMessages

/// One event as `social.events` holds it, with its organizer's username.
struct EventRecord: Sendable, Equatable {
    let id: EventID
    let organizer: Kindred_Social_V1_Person
    let title: String
    let description: String
    let startsAt: Date
    let endsAt: Date?
    let place: String
    let isPublic: Bool
    let mature: Bool
    let createdAt: Date
    var attendeeCount: Int

    /// The event as the API shows it, before the media and what only the viewer knows.
    var proto: Kindred_Social_V1_SocialEvent {
        Kindred_Social_V1_SocialEvent(
            eventID: id.description, organizer: organizer, title: title, description: description,
            startsAt: startsAt,
            endsAt: endsAt,
            place: place, visibility: isPublic ? .public : .private, mature: mature,
            attendeeCount: Int32(clamping: attendeeCount), createdAt: createdAt)
    }

    /// The `event.joined` payload for `minorID`'s join.
    func joined(by minorID: UserID) -> Kindred_Social_V1_Event.OneOf_Payload {
        .eventJoined(
            Kindred_Social_V1_EventJoined(
                minorUserID: minorID.description, eventID: id.description, title: title, place: place,
                startsAt: startsAt, organizerUserID: organizer.userID))
    }

    /// What a guardian reads when asked to approve the minor's join: "Join 'Beach cleanup' on 3 May 2027".
    var joinSummary: String { "Join \(quotedTitle) on \(Self.day(of: startsAt))" }

    /// What a guardian reads when asked to let the minor see a flagged item of this event.
    func mediaViewSummary(contentType: String) -> String {
        let kind = contentType.lowercased().hasPrefix("video/") ? "video" : "photo"
        return "See a flagged \(kind) of the event \(quotedTitle)"
    }

    /// The title in quotes, shortened so that any summary stays within the 200 characters family takes.
    private var quotedTitle: String {
        let longest = 120
        return "'\(title.count > longest ? String(title.prefix(longest - 1)) + "…" : title)'"
    }

    private static let months = [
        "January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
        "November", "December",
    ]

    /// `date`'s day in UTC, the one zone every guardian's app can convert from.
    private static func day(of date: Date) -> String {
        var utc = Calendar(identifier: .gregorian)
        utc.timeZone = .gmt
        let parts = utc.dateComponents([.year, .month, .day], from: date)
        return "\(parts.day!) \(months[parts.month! - 1]) \(parts.year!) (UTC)"
    }
}
