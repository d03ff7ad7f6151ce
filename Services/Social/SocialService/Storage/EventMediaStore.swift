import KindredHandlers
import KindredPostgres

/// The SQL of `social.event_media`, each item read as one viewer stands with it: reported or not, and their
/// approval to see it (`social.media_view_approvals`).
enum EventMediaStore {
    /// Inserts `media` as the items of event `eventID`, in order, with `ids`.
    static func insert(_ media: [MediaDraft], ids: [MediaID], of eventID: EventID, in tx: PostgresTransaction)
        async throws
    {
        guard !media.isEmpty else { return }
        try await tx.query(
            """
            INSERT INTO social.event_media (id, event_id, position, url, content_type, flagged)
            SELECT m.id, \(eventID)::uuid, m.position - 1, m.url, m.content_type, m.flagged
            FROM unnest(\(PostgresArray(ids))::uuid[], \(PostgresArray(media.map(\.url)))::text[],
                        \(PostgresArray(media.map(\.contentType)))::text[],
                        \(PostgresArray(media.map(\.flagged)))::bool[])
                 WITH ORDINALITY AS m (id, url, content_type, flagged, position)
            """)
    }

    /// The items of `eventIDs`, each event's in order, as `viewer` stands with them: one statement a page.
    static func media(of eventIDs: [EventID], viewer: UserID, on db: some StatementRunner) async throws
        -> [EventMedia]
    {
        guard !eventIDs.isEmpty else { return [] }
        return try await db.pureRead(
            """
            SELECT \(EventSQL.mediaColumns) FROM \(asking: viewer) \(EventSQL.media)
            WHERE m.event_id = ANY(\(PostgresArray(eventIDs))::uuid[])
            ORDER BY m.event_id, m.position
            """
        ).map(item)
    }

    /// Item `id` as `viewer` stands with it; nil when there is none.
    static func item(_ id: MediaID, viewer: UserID, on db: some StatementRunner) async throws -> EventMedia? {
        try await db.pureRead(
            """
            SELECT \(EventSQL.mediaColumns) FROM \(asking: viewer) \(EventSQL.media)
            WHERE m.id = \(id)::uuid
            """
        ).first.map(item)
    }

    private static func item(_ row: PostgresRow) throws -> EventMedia {
        let (id, eventID, url, contentType, flagged, reported, approvalID, state) = try row.decode(
            (MediaID, EventID, String, String, Bool, Bool, ApprovalID?, Int?).self)
        var approval: StoredApproval?
        if let approvalID, let state = state.flatMap(ApprovalState.init(rawValue:)) {
            approval = StoredApproval(id: approvalID, state: state)
        }
        return EventMedia(
            id: id, eventID: eventID, url: url, contentType: contentType, flagged: flagged,
            reported: reported,
            approval: approval)
    }
}
