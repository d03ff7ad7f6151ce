import KindredHandlers
import KindredPostgres

/// Who owns the content a report names, read from the tables the messages and events parts write, through
/// the rule their reads apply: nil when there is no such content or the reporter may not see it, so that the
/// two are told apart by nobody. Each is one statement on an index.
extension ReportStore {
    /// The sender of message `id` and its conversation, whoever asks; `Reports` lets only those who may read
    /// the conversation (`MessageStore.mayRead`) go further.
    static func message(_ id: MessageID, on db: some StatementRunner) async throws
        -> (sender: UserID, conversation: ConversationID)?
    {
        try await db.pureRead(
            "SELECT sender_id::text, conversation_id::text FROM social.messages WHERE id = \(id)::uuid"
        ).first?.decode((UserID, ConversationID).self)
    }

    /// The organizer of event `id`, when `reporter` may see it (`EventSQL.visible`, as `GetEvent` reads it).
    static func eventOrganizer(_ id: EventID, seenBy reporter: UserID, on db: some StatementRunner)
        async throws
        -> UserID?
    {
        try await onlyID(
            db.pureRead(
                """
                SELECT e.organizer_id::text FROM \(asking: reporter) CROSS JOIN social.events e
                WHERE e.id = \(id)::uuid AND \(EventSQL.visible)
                """))
    }

    /// The organizer of the event that media item `id` belongs to, when `reporter` may see that event.
    static func mediaOrganizer(_ id: MediaID, seenBy reporter: UserID, on db: some StatementRunner)
        async throws
        -> UserID?
    {
        try await onlyID(
            db.pureRead(
                """
                SELECT e.organizer_id::text
                FROM \(asking: reporter) CROSS JOIN social.event_media m
                    JOIN social.events e ON e.id = m.event_id
                WHERE m.id = \(id)::uuid AND \(EventSQL.visible)
                """))
    }

    private static func onlyID(_ rows: PostgresRows) throws -> UserID? {
        try rows.first?.decode(UserID.self)
    }
}
