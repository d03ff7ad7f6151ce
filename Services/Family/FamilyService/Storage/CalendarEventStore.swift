import FoundationEssentials
import KindredHandlers
import KindredMessages
import KindredPostgres

/// What creating a calendar event found: the event created earlier under the same request id, or the event
/// just inserted.
enum CalendarEventCreation {
    case earlier(CalendarEventID)
    case inserted(StoredCalendarEvent)
}

/// `family.calendar_events` (migration 13): writes here, reads with RSVP counts in
/// `CalendarEventStore+Reads.swift`.
enum CalendarEventStore {
    /// Every time zone name PostgreSQL knows.
    static func timeZoneNames(on db: some StatementRunner) async throws -> Set<String> {
        Set(
            try await db.pureRead("SELECT name FROM pg_timezone_names").map {
                try $0.decode(String.self, column: 0)
            })
    }

    /// Holds its creator's membership of the profile and reads the names their activity shows
    /// (`BabyActivityStore.authorHold`), then, when they own the profile, inserts `event`, its name, description
    /// and location sealed with `texts`, unless they already made one on it under `requestID`. One statement:
    /// the author, and, for an owner, the earlier event's id or the event as inserted (its times to the
    /// microsecond, as every later read has them; nobody has answered it yet); nil when the creator is not a
    /// member of the (active) profile.
    static func insert(
        _ event: StoredCalendarEvent, requestID: String, texts: SealedTexts<CalendarTexts.Key>,
        seals: BabySeals,
        in tx: PostgresTransaction
    ) async throws -> (author: ActivityAuthor, created: CalendarEventCreation?)? {
        let d = event.details
        let key = CalendarTexts.Key(profile: event.profile, event: event.id)
        let sealed = texts.seal(d.texts, of: key)
        let link = CalendarTexts.link(with: texts.cipher).seal(d.videoCallURL, of: key)
        let rows = try await tx.query(
            """
            WITH author AS (\(BabyActivityStore.authorHold(event.createdBy, of: event.profile))),
            earlier AS (\(created(by: event.createdBy, requestID: requestID, on: event.profile))),
            inserted AS (
                INSERT INTO family.calendar_events
                    (profile_id, event_id, texts_sealed, start_at, time_zone, photo_id, video_call_url_sealed,
                     created_by, request_id, created_at, updated_at)
                SELECT \(event.profile)::uuid, \(event.id)::uuid, \(sealed)::bytea, \(d.startAt), \(d.timeZone),
                    \(d.photoID)::uuid, \(link)::bytea, \(event.createdBy)::uuid, \(requestID),
                    \(event.createdAt), \(event.updatedAt)
                WHERE (SELECT role FROM author) = \(BabyRole.owner.rawValue)::smallint
                  AND NOT EXISTS (SELECT FROM earlier)
                RETURNING name, description, location, texts_sealed, event_id, profile_id, start_at, time_zone,
                    photo_id, video_call_url, created_by, created_at, updated_at, 0, 0, 0, 0, video_call_url_sealed)
            SELECT author.*, (SELECT event_id FROM earlier), inserted.* FROM author LEFT JOIN inserted ON true
            """)
        guard let row = rows.first,
            let author = try BabyActivityStore.author(row, of: event.profile, seals: seals)
        else { return nil }
        // The earlier event's id, then the inserted event's eighteen columns, follow the author's thirteen.
        if author.role != .owner { return (author, nil) }
        if let earlier = try row.decode(CalendarEventID?.self, column: 13) {
            return (author, .earlier(earlier))
        }
        return (author, .inserted(try storedEvent(row, from: 14, texts: texts)))
    }

    /// The event's details, opened with `texts`, its row locked until `tx` ends; nil when there is no such event
    /// on `profile`.
    static func lockDetails(
        _ event: CalendarEventID, of profile: BabyProfileID, texts: SealedTexts<CalendarTexts.Key>,
        in tx: PostgresTransaction
    ) async throws -> CalendarEventDetails? {
        try await tx.query(
            """
            SELECT name, description, location, texts_sealed, start_at, time_zone, photo_id, video_call_url,
                video_call_url_sealed
            FROM family.calendar_events WHERE profile_id = \(profile)::uuid AND event_id = \(event)::uuid
            FOR UPDATE
            """
        ).first.map { row in
            let key = CalendarTexts.Key(profile: profile, event: event)
            let opened = try texts.open(try storedTexts(row), of: key)
            return CalendarEventDetails(
                name: opened[0], startAt: try row.decode(Date.self, column: 4),
                timeZone: try row.decode(String.self, column: 5), description: opened[1],
                photoID: try row.decode(PhotoID?.self, column: 6),
                videoCallURL: try link(row, plain: 7, sealed: 8, of: key, texts: texts), location: opened[2])
        }
    }

    /// Changes the event to `d`, its texts sealed with `texts`.
    static func update(
        _ event: CalendarEventID, of profile: BabyProfileID, to d: CalendarEventDetails,
        texts: SealedTexts<CalendarTexts.Key>, at now: Date, in tx: PostgresTransaction
    ) async throws {
        let key = CalendarTexts.Key(profile: profile, event: event)
        let sealed = texts.seal(d.texts, of: key)
        let link = CalendarTexts.link(with: texts.cipher).seal(d.videoCallURL, of: key)
        try await tx.query(
            """
            UPDATE family.calendar_events
            SET name = NULL, description = NULL, location = NULL, texts_sealed = \(sealed)::bytea,
                start_at = \(d.startAt), time_zone = \(d.timeZone), photo_id = \(d.photoID)::uuid,
                video_call_url = '', video_call_url_sealed = \(link)::bytea, updated_at = \(now)
            WHERE profile_id = \(profile)::uuid AND event_id = \(event)::uuid
            """)
    }

    /// The video-call link of a row holding its plaintext column at `plain` and its sealed one at `sealed`.
    static func link(
        _ row: PostgresRow, plain: Int, sealed: Int, of key: CalendarTexts.Key,
        texts: SealedTexts<CalendarTexts.Key>
    ) throws -> String {
        try CalendarTexts.link(with: texts.cipher).open(
            StoredText(
                plain: try row.decode(String.self, column: plain),
                sealed: try row.decode([UInt8]?.self, column: sealed)),
            of: key)
    }

    /// The name, description and location of a row whose four columns from `first` on are the three plaintext
    /// columns and `texts_sealed`.
    static func storedTexts(_ row: PostgresRow, from first: Int = 0) throws -> StoredTexts {
        StoredTexts(
            plain: try (first..<first + 3).map { try row.decode(String?.self, column: $0) },
            sealed: try row.decode([UInt8]?.self, column: first + 3))
    }

    /// Deletes the event, its RSVPs (by cascade) and its comments.
    static func delete(_ event: CalendarEventID, of profile: BabyProfileID, in tx: PostgresTransaction)
        async throws
    {
        try await tx.query(
            """
            WITH gone AS (
                DELETE FROM family.calendar_events
                WHERE profile_id = \(profile)::uuid AND event_id = \(event)::uuid RETURNING event_id)
            DELETE FROM family.baby_comments c USING gone
            WHERE c.profile_id = \(profile)::uuid
                AND c.target_kind = \(CommentTarget.Kind.calendarEvent.rawValue)::smallint
                AND c.target_id = gone.event_id
            """)
    }
}
