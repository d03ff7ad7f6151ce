import KindredAuth
import KindredHandlers
import KindredMessages
import KindredRPC

/// `GetEvent`, and what every rule reads an event by: who may see it, the viewer's controls, and the event
/// as shown to them.
extension Gatherings {
    /// Event `id` as the caller may see it: NOT_FOUND when they may not; CONTENT_FILTERED when enough
    /// people reported it (except to its organizer) or it is mature and the caller filters content.
    func event(_ id: EventID, as caller: Caller) async throws -> Kindred_Social_V1_SocialEvent {
        let viewer = try EventViewer(caller)
        let seen = try await openEvent(id, for: viewer)
        let controls = try await controls(of: viewer, when: seen.event.mature || seen.hasFlaggedMedia)
        try seen.requireUnfiltered(by: controls)
        return try await present([seen], to: viewer, filtering: controls.filtersContent)[0]
    }

    /// Event `id` if `viewer` may see it; `missing` (EVENT_NOT_FOUND) otherwise, as for no event at all.
    func visibleEvent(_ id: EventID, for viewer: EventViewer, missing: RPCError = SocialError.eventNotFound)
        async throws -> ViewedEvent
    {
        guard let seen = try await EventStore.viewed(id, by: viewer.id, on: database), seen.visible else {
            throw missing
        }
        return seen
    }

    /// Event `id` if `viewer` may see it and it is not filtered for everyone but its organizer.
    func openEvent(_ id: EventID, for viewer: EventViewer, missing: RPCError = SocialError.eventNotFound)
        async throws -> ViewedEvent
    {
        let seen = try await visibleEvent(id, for: viewer, missing: missing)
        if seen.reported, !viewer.organizes(seen.event) { throw SocialError.eventFiltered }
        return seen
    }

    /// `viewer`'s parental controls, asked afresh, when a rule `needs` them and the token says they may
    /// apply; inactive ones otherwise, without asking family.
    func controls(of viewer: EventViewer, when needed: Bool) async throws
        -> Kindred_Family_V1_ParentalControls
    {
        guard needed, viewer.controlled else { return Kindred_Family_V1_ParentalControls() }
        return try await family.controls(of: viewer.id)
    }

    /// `events` as `viewer` sees them, in order: their media in one statement (none when no event has any),
    /// and family asked about any hidden item whose approval was pending when social last knew.
    func present(_ events: [ViewedEvent], to viewer: EventViewer, filtering: Bool) async throws
        -> [Kindred_Social_V1_SocialEvent]
    {
        let illustrated = events.filter(\.hasMedia).map(\.event.id)
        guard !illustrated.isEmpty else { return events.map { $0.proto(media: [], filtering: filtering) } }
        var media = try await EventMediaStore.media(of: illustrated, viewer: viewer.id, on: database)
        if filtering { media = try await settleViewApprovals(media, of: viewer.id) }
        let byEvent = Dictionary(grouping: media, by: \.eventID)
        return events.map { $0.proto(media: byEvent[$0.event.id] ?? [], filtering: filtering) }
    }
}

extension ViewedEvent {
    /// Refuses a mature event to a viewer whose `controls` filter content.
    func requireUnfiltered(by controls: Kindred_Family_V1_ParentalControls) throws(RPCError) {
        if event.mature, controls.filtersContent { throw SocialError.eventFiltered }
    }
}
