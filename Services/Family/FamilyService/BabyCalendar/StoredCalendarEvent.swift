import FoundationEssentials
import KindredHandlers
import KindredMessages

/// A calendar event as a member reads it: with how members answered, and the reader's own answer.
struct StoredCalendarEvent: Sendable {
    let id: CalendarEventID
    let profile: BabyProfileID
    let details: CalendarEventDetails
    let createdBy: UserID
    let createdAt: Date
    let updatedAt: Date
    var counts = Kindred_Family_V1_RsvpCounts()
    var myAnswer = Kindred_Family_V1_RsvpAnswer.unspecified

    /// The event as the wire carries it.
    var proto: Kindred_Family_V1_CalendarEvent {
        Kindred_Family_V1_CalendarEvent(
            eventID: id.description, profileID: profile.description, name: details.name,
            startTime: details.startAt, timeZone: details.timeZone,
            description: details.description, photoID: details.photoID?.description ?? "",
            videoCallURL: details.videoCallURL, location: details.location,
            createdByUserID: createdBy.description, createdAt: createdAt,
            updatedAt: updatedAt, rsvpCounts: counts, myRsvp: myAnswer)
    }
}
