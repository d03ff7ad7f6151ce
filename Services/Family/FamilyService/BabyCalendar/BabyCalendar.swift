import FoundationEssentials
import KindredHandlers
import KindredMessages
import KindredPostgres
import KindredRPC

/// A baby profile's calendar: owners create, change and delete events; every member reads them with the
/// RSVP counts and their own answer; followers answer (`BabyCalendar+Rsvps.swift`).
struct BabyCalendar: Sendable {
    let database: PostgresPool
    let clock: WallClock
    let membership: BabyMembership
    /// Opens the profile's sealed name for the notices the activity log posts.
    let seals: BabySeals
    let zones: TimeZoneNames

    init(database: PostgresPool, clock: WallClock, seals: BabySeals) {
        self.database = database
        self.clock = clock
        self.seals = seals
        membership = BabyMembership(database: database)
        zones = TimeZoneNames(database: database)
    }

    /// How the events' names, descriptions and locations are sealed.
    var texts: SealedTexts<CalendarTexts.Key> { CalendarTexts.sealed(with: seals.cipher) }

    /// Adds the event `request` describes, by `owner`; a retry under the same request_id (with the same name)
    /// returns the first event. Followers are told through the activity log.
    func create(_ request: Kindred_Family_V1_CreateCalendarEventRequest, by owner: UserID) async throws
        -> Kindred_Family_V1_CalendarEvent
    {
        var violations = FieldViolations()
        violations.add("request_id", IdempotentCreate.requestIDProblem(request.requestID))
        let profile: BabyProfileID? = violations.id("profile_id", request.profileID)
        let details = CalendarEventField.details(
            CalendarEventField.allCases, of: request.event ?? .init(), over: .init(),
            zones: try await zones.known(),
            &violations)
        let profileID = try violations.throwIfAny(profile)
        let now = clock.now
        let event = StoredCalendarEvent(
            id: .generate(at: now), profile: profileID, details: details, createdBy: owner, createdAt: now,
            updatedAt: now)
        let created = try await IdempotentCreate.run(
            {
                try await database.transaction { tx in
                    guard
                        let (author, created) = try await CalendarEventStore.insert(
                            event, requestID: request.requestID, texts: texts, seals: seals, in: tx)
                    else { throw FamilyError.babyProfileNotFound }
                    guard let created else { throw FamilyError.babyProfileOwnersOnly }
                    if case .earlier = created { return created }
                    try await BabyActivityLog.record(
                        BabyActivityEntry(
                            profile: profileID, kind: .calendarEventAdded, actor: owner,
                            subject: event.id.uuid,
                            detail: details.name), names: author.names, at: now, seals: seals, in: tx)
                    return created
                }
            },
            first: {
                try await CalendarEventStore.created(
                    by: owner, requestID: request.requestID, on: profileID, on: database
                ).map(CalendarEventCreation.earlier)
            })
        switch created {
        case .inserted(let inserted): return inserted.proto
        case .earlier(let id):
            let earlier = try await read(id, of: profileID, by: owner)
            return try IdempotentCreate.retried(earlier, same: earlier.name == details.name)
        }
    }

    /// One event, as `reader` (a member) sees it.
    func event(_ event: CalendarEventID, of profile: BabyProfileID, readBy reader: UserID) async throws
        -> Kindred_Family_V1_CalendarEvent
    {
        let texts = texts
        let events = try await membership.scoped(
            reader, profile: profile, row: { try CalendarEventStore.storedEvent($0, texts: texts) }
        ) {
            CalendarEventStore.events(
                of: $0, only: event, from: nil, before: nil, after: nil, limit: 1, readBy: reader)
        }
        guard let stored = events.first else { throw FamilyError.calendarEventNotFound }
        return stored.proto
    }

    /// Changes the fields `request.update_mask` names, for an owner.
    func update(_ request: Kindred_Family_V1_UpdateCalendarEventRequest, by owner: UserID) async throws
        -> Kindred_Family_V1_CalendarEvent
    {
        var violations = FieldViolations()
        let profile: BabyProfileID? = violations.id("profile_id", request.profileID)
        let event: CalendarEventID? = violations.id("event_id", request.eventID)
        let fields = CalendarEventField.named(by: request.updateMask, &violations)
        let zones = fields.contains(.timeZone) ? try await zones.known() : []
        // Checked against empty details first, so that every bad field is named before any read.
        _ = CalendarEventField.details(
            fields, of: request.event ?? .init(), over: .init(), zones: zones, &violations)
        let (profileID, eventID) = try violations.throwIfAny(profile, event)
        let now = clock.now
        try await database.transaction { tx in
            try await BabyMembership.holdOwner(owner, of: profileID, in: tx)
            guard
                let stored = try await CalendarEventStore.lockDetails(
                    eventID, of: profileID, texts: texts, in: tx)
            else {
                throw FamilyError.calendarEventNotFound
            }
            var unused = FieldViolations()
            let changed = CalendarEventField.details(
                fields, of: request.event ?? .init(), over: stored, zones: zones, &unused)
            try await CalendarEventStore.update(
                eventID, of: profileID, to: changed, texts: texts, at: now, in: tx)
        }
        return try await read(eventID, of: profileID, by: owner)
    }

    /// Deletes an event with its RSVPs and comments, for an owner.
    func delete(_ eventID: CalendarEventID, of profileID: BabyProfileID, by owner: UserID) async throws {
        try await database.transaction { tx in
            try await BabyMembership.holdOwner(owner, of: profileID, in: tx)
            // Locked first, in a statement of its own: a comment being added holds the event until it commits,
            // and the delete's statement, started after, then sees that comment and deletes it too.
            guard
                try await CalendarEventStore.lockDetails(eventID, of: profileID, texts: texts, in: tx) != nil
            else {
                throw FamilyError.calendarEventNotFound
            }
            try await CalendarEventStore.delete(eventID, of: profileID, in: tx)
        }
    }

    /// `event` as `reader` sees it; CALENDAR_EVENT_NOT_FOUND when it is not on `profile`.
    func read(_ event: CalendarEventID, of profile: BabyProfileID, by reader: UserID) async throws
        -> Kindred_Family_V1_CalendarEvent
    {
        guard
            let stored = try await CalendarEventStore.event(
                event, of: profile, readBy: reader, texts: texts, on: database)
        else {
            throw FamilyError.calendarEventNotFound
        }
        return stored.proto
    }

    /// A profile id and an event id, or INVALID_ARGUMENT naming each bad one.
    static func ids(_ profile: String, _ event: String) throws(RPCError) -> (BabyProfileID, CalendarEventID) {
        try FieldViolations.ids(("profile_id", profile), ("event_id", event))
    }
}
