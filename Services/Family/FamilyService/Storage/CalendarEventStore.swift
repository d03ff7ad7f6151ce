import FoundationEssentials
import KindredHandlers
import KindredMessages
import KindredPostgres

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

    static func insert(_ event: StoredCalendarEvent, requestID: String, in tx: PostgresTransaction)
        async throws
    {
        let d = event.details
        try await tx.query(
            """
            INSERT INTO family.calendar_events
                (profile_id, event_id, name, start_at, time_zone, description, photo_id, video_call_url, location,
                 created_by, request_id, created_at, updated_at)
            VALUES (\(event.profile)::uuid, \(event.id)::uuid, \(d.name), \(d.startAt), \(d.timeZone), \(d.description),
                    \(d.photoID)::uuid, \(d.videoCallURL), \(d.location), \(event.createdBy)::uuid, \(requestID),
                    \(event.createdAt), \(event.updatedAt))
            """)
    }

    /// The event's details, its row locked until `tx` ends; nil when there is no such event on `profile`.
    static func lockDetails(_ event: CalendarEventID, of profile: BabyProfileID, in tx: PostgresTransaction)
        async throws -> CalendarEventDetails?
    {
        try await tx.query(
            """
            SELECT name, start_at, time_zone, description, photo_id, video_call_url, location
            FROM family.calendar_events WHERE profile_id = \(profile)::uuid AND event_id = \(event)::uuid
            FOR UPDATE
            """
        ).first.map { row in
            CalendarEventDetails(
                name: try row.decode(String.self, column: 0), startAt: try row.decode(Date.self, column: 1),
                timeZone: try row.decode(String.self, column: 2),
                description: try row.decode(String.self, column: 3),
                photoID: try row.decode(PhotoID?.self, column: 4),
                videoCallURL: try row.decode(String.self, column: 5),
                location: try row.decode(String.self, column: 6))
        }
    }

    /// The event's name, holding the event (`FOR SHARE`) until `tx` ends so that it is not deleted under an
    /// RSVP or a comment; nil when there is no such event on `profile`.
    static func holdName(_ event: CalendarEventID, of profile: BabyProfileID, in tx: PostgresTransaction)
        async throws -> String?
    {
        try await tx.query(
            """
            SELECT name FROM family.calendar_events
            WHERE profile_id = \(profile)::uuid AND event_id = \(event)::uuid FOR SHARE
            """
        ).first.map { try $0.decode(String.self, column: 0) }
    }

    static func update(
        _ event: CalendarEventID, of profile: BabyProfileID, to d: CalendarEventDetails, at now: Date,
        in tx: PostgresTransaction
    ) async throws {
        try await tx.query(
            """
            UPDATE family.calendar_events
            SET name = \(d.name), start_at = \(d.startAt), time_zone = \(d.timeZone), description = \(d.description),
                photo_id = \(d.photoID)::uuid, video_call_url = \(d.videoCallURL), location = \(d.location),
                updated_at = \(now)
            WHERE profile_id = \(profile)::uuid AND event_id = \(event)::uuid
            """)
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
