import FoundationEssentials
import KindredHandlers
import KindredMessages
import KindredPostgres

/// Reading calendar events as members see them: each with its RSVP counts and the reader's own answer, in
/// one statement (the counts of a page's events are read from the RSVPs' primary key, event by event).
extension CalendarEventStore {
    /// Where a page of events ends: its last event's start and id.
    typealias Position = (startAt: Date, event: CalendarEventID)

    /// `event` of `profile` as `reader` sees it; nil when there is no such event.
    static func event(
        _ event: CalendarEventID, of profile: BabyProfileID, readBy reader: UserID,
        texts: SealedTexts<CalendarTexts.Key>, on db: some StatementRunner
    ) async throws -> StoredCalendarEvent? {
        try await events(
            of: [profile], only: event, from: nil, before: nil, after: nil, limit: 1, readBy: reader,
            texts: texts,
            on: db
        ).first
    }

    /// Up to `limit` events of `profiles` (only `only`, when given) starting in `from..<before` (nil:
    /// unbounded) after `position`, by start time, as `reader` sees them, their texts opened with `texts`.
    static func events(
        of profiles: [BabyProfileID], only: CalendarEventID? = nil, from: Date?, before: Date?,
        after position: Position?, limit: Int, readBy reader: UserID, texts: SealedTexts<CalendarTexts.Key>,
        on db: some StatementRunner
    ) async throws -> [StoredCalendarEvent] {
        try await db.pureRead(
            events(
                of: profiles, only: only, from: from, before: before, after: position, limit: limit,
                readBy: reader)
        ).map { try storedEvent($0, texts: texts) }
    }

    /// The SELECT of `events`, whose rows `storedEvent` decodes: for a read that checks membership in the same
    /// statement (`BabyMemberStore.readAsMember`).
    static func events(
        of profiles: [BabyProfileID], only: CalendarEventID? = nil, from: Date?, before: Date?,
        after position: Position?, limit: Int, readBy reader: UserID
    ) -> PostgresQuery {
        // Each profile's page from calendar_events_by_start, the earliest of those, and only then the page's
        // counts and the reader's answer (one pass over each event's RSVPs): counted before the LIMIT, every
        // event of the profiles was counted and the reader's answers were a scan of every RSVP.
        """
        SELECT e.name, e.description, e.location, e.texts_sealed, e.event_id, e.profile_id, e.start_at,
            e.time_zone, e.photo_id, e.video_call_url, e.created_by, e.created_at, e.updated_at, r.attending,
            r.not_attending, r.maybe, coalesce(r.mine, 0), e.video_call_url_sealed
        FROM (
            SELECT e.* FROM unnest(\(PostgresArray(profiles.map(\.description)))::uuid[]) AS s(profile_id)
            CROSS JOIN LATERAL (
                SELECT * FROM family.calendar_events e
                WHERE e.profile_id = s.profile_id AND (\(only)::uuid IS NULL OR e.event_id = \(only)::uuid)
                    AND e.start_at >= coalesce(\(from), '-infinity')
                    AND e.start_at < coalesce(\(before), 'infinity')
                    AND (e.start_at, e.event_id) > (coalesce(\(position?.startAt), '-infinity'),
                        coalesce(\(position?.event)::uuid, '00000000-0000-0000-0000-000000000000'))
                ORDER BY e.start_at, e.event_id
                LIMIT \(limit)) e
            ORDER BY e.start_at, e.event_id
            LIMIT \(limit)) e
        CROSS JOIN LATERAL (
            SELECT count(*) FILTER (WHERE answer = 1) AS attending,
                count(*) FILTER (WHERE answer = 2) AS not_attending, count(*) FILTER (WHERE answer = 3) AS maybe,
                max(answer) FILTER (WHERE user_id = \(reader)::uuid) AS mine
            FROM family.calendar_rsvps WHERE profile_id = e.profile_id AND event_id = e.event_id) r
        ORDER BY e.start_at, e.event_id
        """
    }

    /// An event from the columns `events` selects (and an insert returns), from column `first` on, opened with
    /// `texts`.
    static func storedEvent(_ row: PostgresRow, from first: Int = 0, texts: SealedTexts<CalendarTexts.Key>)
        throws
        -> StoredCalendarEvent
    {
        let (id, profile) = (
            try row.decode(CalendarEventID.self, column: first + 4),
            try row.decode(BabyProfileID.self, column: first + 5)
        )
        let key = CalendarTexts.Key(profile: profile, event: id)
        let opened = try texts.open(try storedTexts(row, from: first), of: key)
        return StoredCalendarEvent(
            id: id, profile: profile,
            details: CalendarEventDetails(
                name: opened[0], startAt: try row.decode(Date.self, column: first + 6),
                timeZone: try row.decode(String.self, column: first + 7), description: opened[1],
                photoID: try row.decode(PhotoID?.self, column: first + 8),
                videoCallURL: try link(row, plain: first + 9, sealed: first + 17, of: key, texts: texts),
                location: opened[2]),
            createdBy: try row.decode(UserID.self, column: first + 10),
            createdAt: try row.decode(Date.self, column: first + 11),
            updatedAt: try row.decode(Date.self, column: first + 12),
            counts: Kindred_Family_V1_RsvpCounts(
                attending: Int32(try row.decode(Int.self, column: first + 13)),
                notAttending: Int32(try row.decode(Int.self, column: first + 14)),
                maybe: Int32(try row.decode(Int.self, column: first + 15))),
            myAnswer: Kindred_Family_V1_RsvpAnswer(
                rawValue: Int32(try row.decode(Int.self, column: first + 16))))
    }

    /// The event `user` created on `profile` under `requestID`, if any.
    static func created(
        by user: UserID, requestID: String, on profile: BabyProfileID, on db: some StatementRunner
    )
        async throws -> CalendarEventID?
    {
        try await db.query(created(by: user, requestID: requestID, on: profile)).first.map {
            try $0.decode(CalendarEventID.self, column: 0)
        }
    }

    /// The SELECT of `created`, for `insert`'s retry check.
    static func created(by user: UserID, requestID: String, on profile: BabyProfileID) -> PostgresQuery {
        """
        SELECT event_id FROM family.calendar_events
        WHERE profile_id = \(profile)::uuid AND created_by = \(user)::uuid AND request_id = \(requestID)
        """
    }

    /// Whether `profile` has `event`.
    static func exists(_ event: CalendarEventID, of profile: BabyProfileID, on db: some StatementRunner)
        async throws -> Bool
    {
        try await db.pureRead(
            """
            SELECT EXISTS (SELECT 1 FROM family.calendar_events
                WHERE profile_id = \(profile)::uuid AND event_id = \(event)::uuid)
            """
        )[0].decode(Bool.self)
    }
}
