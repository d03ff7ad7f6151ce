import FoundationEssentials
import KindredHandlers
import KindredPostgres

/// Reading messages and conversations, through `social.shown_messages` (migration 4): every read selects a
/// message's columns first, in the order `message(_:)` decodes them.
extension MessageStore {
    /// One of a user's conversations: the other person, the last message, and when it was sent (the list's
    /// order).
    typealias Listed = (other: Person, lastMessage: StoredMessage, lastMessageAt: Date)

    /// The message `senderID` sent with `requestID`, if any.
    static func sent(
        by senderID: UserID, requestID: String, bodies: MessageBodies, on db: some StatementRunner
    ) async throws -> StoredMessage? {
        try await db.pureRead(
            """
            SELECT id, conversation_id, sender_id, sender_username, sender_minor, recipient_id, body, sent_at,
                reporters, body_sealed
            FROM social.shown_messages WHERE sender_id = \(senderID) AND request_id = \(requestID)
            """
        ).first.map { try message($0, bodies) }
    }

    /// Up to `limit` of `userID`'s conversations after `position` (nil: from the start), the most recently
    /// active first; those with someone blocked either way are left out.
    static func conversations(
        of userID: UserID, after position: ConversationPage.Position?, limit: Int, bodies: MessageBodies,
        on db: some StatementRunner
    ) async throws -> [Listed] {
        let (at, afterID) = (position?.lastMessageAt, position?.conversationID)
        // The first bound on last_message_at is the index's range; the second only settles ties.
        return try await db.pureRead(
            """
            SELECT v.id, v.conversation_id, v.sender_id, v.sender_username, v.sender_minor, v.recipient_id, v.body,
                v.sent_at, v.reporters, v.body_sealed, o.user_id, o.username, o.minor, c.last_message_at
            FROM social.conversations c
            JOIN social.people o ON o.user_id = c.other_id
            JOIN social.shown_messages v ON v.conversation_id = c.conversation_id AND v.id = c.last_message_id
            WHERE c.user_id = \(userID)
                AND c.last_message_at <= coalesce(\(at), 'infinity')
                AND (c.last_message_at < coalesce(\(at), 'infinity') OR c.conversation_id > \(afterID))
                AND NOT EXISTS (SELECT 1 FROM social.blocks WHERE blocker_id = \(userID) AND blocked_id = c.other_id)
                AND NOT EXISTS (SELECT 1 FROM social.blocks WHERE blocker_id = c.other_id AND blocked_id = \(userID))
            ORDER BY c.last_message_at DESC, c.conversation_id
            LIMIT \(limit)
            """
        ).map { row in
            let other = Person(
                id: try row.decode(UserID.self, column: 10),
                username: try row.decode(String.self, column: 11),
                minor: try row.decode(Bool.self, column: 12))
            return (other, try message(row, bodies), try row.decode(Date.self, column: 13))
        }
    }

    /// Whether `userID` takes part in `conversationID` with someone neither of them blocked.
    ///
    /// The conversation's pair is read from one of its messages (every conversation is written with its first
    /// message, `insert`), so the caller's row is found by its key, `(user_id, other_id)`: no index by
    /// conversation id, which each message sent would have to update on both rows. The row must carry this
    /// conversation's id, so someone who is neither party (whose row with the sender, if any, carries the id of
    /// their own conversation) reads nothing.
    static func mayRead(_ conversationID: ConversationID, _ userID: UserID, on db: some StatementRunner)
        async throws
        -> Bool
    {
        try await db.pureRead(
            """
            SELECT EXISTS (
                SELECT 1 FROM social.conversations c
                WHERE c.user_id = \(userID)
                    AND c.other_id = (
                        SELECT CASE m.sender_id WHEN \(userID) THEN m.recipient_id ELSE m.sender_id END
                        FROM social.messages m WHERE m.conversation_id = \(conversationID) LIMIT 1)
                    AND c.conversation_id = \(conversationID)
                    AND NOT EXISTS (
                        SELECT 1 FROM social.blocks WHERE blocker_id = \(userID) AND blocked_id = c.other_id)
                    AND NOT EXISTS (
                        SELECT 1 FROM social.blocks WHERE blocker_id = c.other_id AND blocked_id = \(userID)))
            """
        )[0].decode(Bool.self)
    }

    /// Up to `limit` messages of `conversationID` older than message `id` (nil: the newest), newest first.
    static func messages(
        in conversationID: ConversationID, before id: MessageID?, limit: Int, bodies: MessageBodies,
        on db: some StatementRunner
    ) async throws -> [StoredMessage] {
        try await db.pureRead(
            """
            SELECT id, conversation_id, sender_id, sender_username, sender_minor, recipient_id, body, sent_at,
                reporters, body_sealed
            FROM social.shown_messages
            WHERE conversation_id = \(conversationID)
                AND id < coalesce(\(id)::uuid, 'ffffffff-ffff-ffff-ffff-ffffffffffff')
            ORDER BY id DESC
            LIMIT \(limit)
            """
        ).map { try message($0, bodies) }
    }

    /// The message in a row's first ten columns, its body opened by `bodies`.
    static func message(_ row: PostgresRow, _ bodies: MessageBodies) throws -> StoredMessage {
        let id = try row.decode(MessageID.self, column: 0)
        return StoredMessage(
            id: id,
            conversationID: try row.decode(ConversationID.self, column: 1),
            sender: Person(
                id: try row.decode(UserID.self, column: 2), username: try row.decode(String.self, column: 3),
                minor: try row.decode(Bool.self, column: 4)),
            recipientID: try row.decode(UserID.self, column: 5),
            body: try bodies.open(
                plain: try row.decode(String?.self, column: 6),
                sealed: try row.decode([UInt8]?.self, column: 9),
                of: id),
            sentAt: try row.decode(Date.self, column: 7), reporters: try row.decode(Int.self, column: 8))
    }
}
