import KindredAPI
import KindredHandlers
import KindredMessages
import KindredRPC

/// A baby profile's calendar: `CreateCalendarEvent`, `GetCalendarEvent`, `UpdateCalendarEvent`,
/// `DeleteCalendarEvent`, `ListCalendarEvents`, `SetRsvp`, `ListRsvps`.
extension FamilyAPI {
    func createCalendarEvent(
        _ request: Kindred_Family_V1_CreateCalendarEventRequest, context: ServerContext
    ) async throws -> Kindred_Family_V1_CreateCalendarEventResponse {
        let event = try await calendar.create(request, by: try context.authenticatedCaller().account())
        return Kindred_Family_V1_CreateCalendarEventResponse(event: event)
    }

    func getCalendarEvent(
        _ request: Kindred_Family_V1_GetCalendarEventRequest, context: ServerContext
    ) async throws -> Kindred_Family_V1_GetCalendarEventResponse {
        let reader = try context.authenticatedCaller().account()
        let (profile, eventID) = try BabyCalendar.ids(request.profileID, request.eventID)
        let event = try await calendar.event(eventID, of: profile, readBy: reader)
        return Kindred_Family_V1_GetCalendarEventResponse(event: event)
    }

    func updateCalendarEvent(
        _ request: Kindred_Family_V1_UpdateCalendarEventRequest, context: ServerContext
    ) async throws -> Kindred_Family_V1_UpdateCalendarEventResponse {
        let event = try await calendar.update(request, by: try context.authenticatedCaller().account())
        return Kindred_Family_V1_UpdateCalendarEventResponse(event: event)
    }

    func deleteCalendarEvent(
        _ request: Kindred_Family_V1_DeleteCalendarEventRequest, context: ServerContext
    ) async throws -> Kindred_Family_V1_DeleteCalendarEventResponse {
        let owner = try context.authenticatedCaller().account()
        let (profile, event) = try BabyCalendar.ids(request.profileID, request.eventID)
        try await calendar.delete(event, of: profile, by: owner)
        return Kindred_Family_V1_DeleteCalendarEventResponse()
    }

    func listCalendarEvents(
        _ request: Kindred_Family_V1_ListCalendarEventsRequest, context: ServerContext
    ) async throws -> Kindred_Family_V1_ListCalendarEventsResponse {
        let reader = try context.authenticatedCaller().account()
        return try await calendar.list(try CalendarQuery(request), readBy: reader)
    }

    func setRsvp(_ request: Kindred_Family_V1_SetRsvpRequest, context: ServerContext) async throws
        -> Kindred_Family_V1_SetRsvpResponse
    {
        let follower = try context.authenticatedCaller().account()
        let event = try await calendar.setRsvp(try RsvpDraft(request), by: follower)
        return Kindred_Family_V1_SetRsvpResponse(event: event)
    }

    func listRsvps(_ request: Kindred_Family_V1_ListRsvpsRequest, context: ServerContext) async throws
        -> Kindred_Family_V1_ListRsvpsResponse
    {
        let owner = try context.authenticatedCaller().account()
        return try await calendar.rsvps(try RsvpQuery(request), readBy: owner)
    }
}
