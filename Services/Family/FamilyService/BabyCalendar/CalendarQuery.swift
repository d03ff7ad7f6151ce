import FoundationEssentials
import KindredHandlers
import KindredMessages
import KindredRPC

/// A `ListCalendarEventsRequest` whose fields were checked: the one profile it names (nil: every profile of the
/// reader's), the range the events start in, and the page asked for.
struct CalendarQuery: Sendable {
    let profile: BabyProfileID?
    let startFrom: Date?
    let startBefore: Date?
    /// Keyed by when each event starts, then by the event.
    let page: ContentPage<(Date, CalendarEventID)>

    /// The query `request` holds, or INVALID_ARGUMENT naming every bad field.
    init(_ request: Kindred_Family_V1_ListCalendarEventsRequest) throws(RPCError) {
        var violations = FieldViolations()
        profile = request.profileID.isEmpty ? nil : violations.id("profile_id", request.profileID)
        (startFrom, startBefore) = (request.startFrom, request.startBefore)
        if let startFrom, let startBefore, startFrom >= startBefore {
            violations.add("start_before", "must be after start from")
        }
        page = ContentPage(request.page, list: "events", keyFields: 2, &violations) { fields in
            Paging.instant(fields[0]).flatMap { at in CalendarEventID(fields[1]).map { (at, $0) } }
        }
        try violations.throwIfAny()
    }
}
