import KindredAuth
import KindredHandlers
import KindredMessages
import KindredRPC

/// `CreateEvent`.
extension Gatherings {
    /// Creates the request's event, organized by the caller; a retry with the same request id answers the
    /// first event and changes nothing. A minor whose guardian restricted public events may create private
    /// ones only (PARENTAL_CONTROLS_PUBLIC_EVENT_RESTRICTED).
    func create(_ request: Kindred_Social_V1_CreateEventRequest, as caller: Caller) async throws
        -> Kindred_Social_V1_SocialEvent
    {
        let viewer = try EventViewer(caller)
        let draft = try EventDraft(request)
        if draft.isPublic, try await controls(of: viewer, when: true).restrictsPublicEvents {
            throw SocialError.publicEventRestricted
        }
        // Reads join the organizer's row of social.people for their username.
        _ = try await people.person(viewer.id)
        let now = clock.now
        let id = try await database.transaction { tx in
            try await EventStore.insert(
                draft, id: EventID.generate(at: now),
                mediaIDs: draft.media.map { _ in MediaID.generate(at: now) },
                by: viewer.id, at: now, in: tx)
        }
        guard let created = try await EventStore.viewed(id, by: viewer.id, on: database) else {
            throw RPCError.internalError("an event vanished right after it was created")
        }
        // The organizer sees what they just made whatever their filter, as they sent it.
        return try await present([created], to: viewer, filtering: false)[0]
    }
}
