import FoundationEssentials
import KindredHandlers
import KindredMessages
import KindredRPC

/// A `ListRsvpsRequest` whose fields were checked: the profile, its event, and the page of answers asked for.
struct RsvpQuery: Sendable {
    let profile: BabyProfileID
    let event: CalendarEventID
    /// Keyed by when each follower answered, then by the follower.
    let page: ContentPage<(Date, UserID)>

    /// The query `request` holds, or INVALID_ARGUMENT naming every bad field.
    init(_ request: Kindred_Family_V1_ListRsvpsRequest) throws(RPCError) {
        var violations = FieldViolations()
        let profile: BabyProfileID? = violations.id("profile_id", request.profileID)
        let event: CalendarEventID? = violations.id("event_id", request.eventID)
        page = ContentPage(request.page, list: "rsvps", keyFields: 2, &violations) { fields in
            Paging.instant(fields[0]).flatMap { at in UserID(fields[1]).map { (at, $0) } }
        }
        (self.profile, self.event) = try violations.throwIfAny(profile, event)
    }
}
