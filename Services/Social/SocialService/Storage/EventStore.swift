import FoundationEssentials
import KindredHandlers
import KindredPostgres

/// The SQL of `social.events` one event at a time; the feed is in `EventStore+Feed.swift`, media in
/// `EventMediaStore.swift`, the shared fragments in `EventSQL.swift`.
enum EventStore {
    /// Inserts `draft` as event `id` of `organizerID` with its media, unless the organizer already made one
    /// with the same request id; answers the id of the event that stands, new or first.
    static func insert(
        _ draft: EventDraft, id: EventID, mediaIDs: [MediaID], by organizerID: UserID, at now: Date,
        in tx: PostgresTransaction
    ) async throws -> EventID {
        let inserted = try await tx.query(
            """
            INSERT INTO social.events (id, organizer_id, title, description, starts_at, ends_at, place,
                                       public, mature, created_at, request_id, has_media)
            VALUES (\(id)::uuid, \(organizerID)::uuid, \(draft.title), \(draft.description),
                    \(draft.startsAt), \(draft.endsAt), \(draft.place), \(draft.isPublic), \(draft.mature),
                    \(now), \(draft.requestID), \(!draft.media.isEmpty))
            ON CONFLICT (organizer_id, request_id) DO NOTHING
            RETURNING id::text
            """)
        guard inserted.isEmpty else {
            try await EventMediaStore.insert(draft.media, ids: mediaIDs, of: id, in: tx)
            return id
        }
        let first = try await tx.query(
            """
            SELECT id::text FROM social.events
            WHERE organizer_id = \(organizerID)::uuid AND request_id = \(draft.requestID)
            """)
        return try first[0].decode(EventID.self, column: 0)
    }

    /// Event `id` as `viewer` stands with it (whether they may see it included); nil when there is none.
    static func viewed(_ id: EventID, by viewer: UserID, on db: some StatementRunner) async throws
        -> ViewedEvent?
    {
        let rows = try await db.pureRead(
            """
            SELECT \(EventSQL.columns), \(EventSQL.visible), \(EventSQL.reported),
                EXISTS (SELECT 1 FROM social.follows f
                        WHERE f.follower_id = q.viewer AND f.followee_id = e.organizer_id),
                EXISTS (SELECT 1 FROM social.event_media m WHERE m.event_id = e.id AND m.flagged)
            FROM \(asking: viewer) CROSS JOIN social.events e
                JOIN social.people p ON p.user_id = e.organizer_id
            WHERE e.id = \(id)::uuid
            """)
        guard let row = rows.first else { return nil }
        var viewed = try viewedEvent(row)
        let facts = EventSQL.columnCount
        viewed.visible = try row.decode(Bool.self, column: facts)
        viewed.reported = try row.decode(Bool.self, column: facts + 1)
        viewed.followsOrganizer = try row.decode(Bool.self, column: facts + 2)
        viewed.hasFlaggedMedia = try row.decode(Bool.self, column: facts + 3)
        return viewed
    }

    /// The event, whether the viewer joined it and whether it has media, from the first columns of `row` (`EventSQL.columns`).
    static func viewedEvent(_ row: PostgresRow) throws -> ViewedEvent {
        let event = EventRecord(
            id: try row.decode(EventID.self, column: 0),
            organizer: .init(
                userID: try row.decode(String.self, column: 1),
                username: try row.decode(String.self, column: 2)),
            title: try row.decode(String.self, column: 3),
            description: try row.decode(String.self, column: 4),
            startsAt: try row.decode(Date.self, column: 5), endsAt: try row.decode(Date?.self, column: 6),
            place: try row.decode(String.self, column: 7), isPublic: try row.decode(Bool.self, column: 8),
            mature: try row.decode(Bool.self, column: 9), createdAt: try row.decode(Date.self, column: 10),
            attendeeCount: try row.decode(Int.self, column: 11))
        return ViewedEvent(
            event: event, joined: try row.decode(Bool.self, column: 12),
            hasMedia: try row.decode(Bool.self, column: 13))
    }
}
