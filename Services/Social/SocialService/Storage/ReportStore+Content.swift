import KindredPostgres

/// Who owns the content a report names, read from the tables the messages and events parts write. Each is
/// one index probe; nil when there is no such content.
extension ReportStore {
    /// The sender of message `id`, when `reporter` sent or received it; nil otherwise, so that nobody learns
    /// of a conversation they are not part of.
    static func messageSender(_ id: String, seenBy reporter: String, on db: some StatementRunner) async throws
        -> String?
    {
        try await onlyID(
            db.pureRead(
                """
                SELECT sender_id::text FROM social.messages
                WHERE id = \(id)::uuid AND \(reporter)::uuid IN (sender_id, recipient_id)
                """))
    }

    /// The organizer of event `id`.
    static func eventOrganizer(_ id: String, on db: some StatementRunner) async throws -> String? {
        try await onlyID(db.pureRead("SELECT organizer_id::text FROM social.events WHERE id = \(id)::uuid"))
    }

    /// The organizer of the event that media item `id` belongs to.
    static func mediaOrganizer(_ id: String, on db: some StatementRunner) async throws -> String? {
        try await onlyID(
            db.pureRead(
                """
                SELECT e.organizer_id::text
                FROM social.event_media m JOIN social.events e ON e.id = m.event_id
                WHERE m.id = \(id)::uuid
                """))
    }

    private static func onlyID(_ rows: PostgresRows) throws -> String? {
        try rows.first?.decode(String.self)
    }
}
