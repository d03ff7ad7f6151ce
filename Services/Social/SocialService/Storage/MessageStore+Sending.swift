import KindredHandlers
import KindredPostgres

/// What `SendMessage` reads before it writes, in one statement.
extension MessageStore {
    /// What social knows of a message about to go from `senderID` to `recipientID`.
    struct SendingContext: Sendable {
        /// The message the sender already sent with the request's request_id: the send is a retry.
        let earlier: StoredMessage?
        /// Nil for a person social has not met yet (identity is asked then).
        let sender: Person?
        let recipient: Person?
        /// Seen from the sender.
        let relationship: Relationship
    }

    /// The earlier message sent with `requestID`, both people and their relationship: one round trip where
    /// four reads used to go out side by side, each its own statement.
    static func sendingContext(
        from senderID: UserID, to recipientID: UserID, requestID: String, bodies: MessageBodies,
        on db: some StatementRunner
    ) async throws -> SendingContext {
        let rows = try await db.pureRead(
            """
            SELECT e.id, e.conversation_id, e.sender_id, e.sender_username, e.sender_minor, e.recipient_id, e.body,
                e.sent_at, e.reporters, e.body_sealed,
                s.username, s.minor, r.username, r.minor,
                \(unsafeSQL: RelationshipStore.columns)
            FROM (SELECT \(senderID)::uuid AS me, \(recipientID)::uuid AS other) pair
            LEFT JOIN social.people s ON s.user_id = pair.me
            LEFT JOIN social.people r ON r.user_id = pair.other
            LEFT JOIN social.shown_messages e ON e.sender_id = pair.me AND e.request_id = \(requestID)
            """)
        // One row: `pair` has one, each join matches at most one (people by key, the request by a unique index).
        guard let row = rows.first else {
            throw PostgresError(
                kind: .decoding, message: "the sending context of \(senderID) answered no row")
        }
        func person(_ id: UserID, at column: Int) throws -> Person? {
            try row.decode(String?.self, column: column).map {
                Person(id: id, username: $0, minor: try row.decode(Bool.self, column: column + 1))
            }
        }
        return SendingContext(
            earlier: try row.decode(MessageID?.self, column: 0) == nil ? nil : try message(row, bodies),
            sender: try person(senderID, at: 10), recipient: try person(recipientID, at: 12),
            relationship: try RelationshipStore.relationship(row, from: 14))
    }
}
