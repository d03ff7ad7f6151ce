import FoundationEssentials
import KindredHandlers
import KindredMessages

/// `ListCalendarEvents` and `ListRsvps`.
extension BabyCalendar {
    /// A page of the events of one profile, or of every profile `reader` belongs to, starting in the
    /// requested range, earliest first.
    func list(_ query: CalendarQuery, readBy reader: UserID) async throws
        -> Kindred_Family_V1_ListCalendarEventsResponse
    {
        let (profile, from, before, page) = (query.profile, query.startFrom, query.startBefore, query.page)
        let texts = texts
        let events = try await membership.scoped(
            reader, profile: profile, row: { try CalendarEventStore.storedEvent($0, texts: texts) }
        ) {
            CalendarEventStore.events(
                of: $0, from: from, before: before, after: page.after, limit: page.size + 1, readBy: reader)
        }
        let (served, next) = page.served(events) { [Paging.field($0.details.startAt), $0.id.description] }
        return Kindred_Family_V1_ListCalendarEventsResponse(events: served.map(\.proto), page: next)
    }

    /// A page of who answered an event and what, the earliest answer first, for an owner.
    func rsvps(_ query: RsvpQuery, readBy owner: UserID) async throws -> Kindred_Family_V1_ListRsvpsResponse {
        let (profileID, eventID, page) = (query.profile, query.event, query.page)
        try await membership.requireOwner(owner, of: profileID)
        async let exists = CalendarEventStore.exists(eventID, of: profileID, on: database)
        async let answers = CalendarRsvpStore.answers(
            to: eventID, of: profileID, after: page.after, limit: page.size + 1, on: database)
        guard try await exists else { throw FamilyError.calendarEventNotFound }
        let (served, next) = page.served(try await answers) { rsvp in
            [Paging.field(rsvp.answeredAt ?? .distantPast), rsvp.userID]
        }
        return Kindred_Family_V1_ListRsvpsResponse(rsvps: served, page: next)
    }
}
