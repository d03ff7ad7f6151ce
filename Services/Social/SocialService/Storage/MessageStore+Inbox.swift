import KindredHandlers
import KindredPostgres

/// What `WatchMessages` reads: each user's received messages by their position in the user's inbox
/// (`recipient_seq`, migration 4), and the wake-ups that tell streams in every instance to read again.
extension MessageStore {
    /// The position of the newest message `recipient` received; 0 before the first.
    static func inboxPosition(of recipient: UserID, on db: some StatementRunner) async throws -> Int64 {
        try await db.pureRead(
            "SELECT coalesce((SELECT last_seq FROM social.message_inboxes WHERE user_id = \(recipient)), 0)"
        )[0].decode(Int64.self)
    }

    /// Up to `limit` of the messages `recipient` received after position `seq`, in order, each with its
    /// position (its cursor); those from someone blocked either way are left out.
    static func received(
        by recipient: UserID, after seq: Int64, limit: Int, bodies: MessageBodies, on db: some StatementRunner
    ) async throws -> [ReceivedMessage] {
        try await db.pureRead(
            """
            SELECT v.id, v.conversation_id, v.sender_id, v.sender_username, v.sender_minor, v.recipient_id, v.body,
                v.sent_at, v.reporters, v.body_sealed, v.recipient_seq
            FROM social.shown_messages v
            WHERE v.recipient_id = \(recipient) AND v.recipient_seq > \(seq)
                AND NOT EXISTS (SELECT 1 FROM social.blocks WHERE blocker_id = \(recipient) AND blocked_id = v.sender_id)
                AND NOT EXISTS (SELECT 1 FROM social.blocks WHERE blocker_id = v.sender_id AND blocked_id = \(recipient))
            ORDER BY v.recipient_seq
            LIMIT \(limit)
            """
        ).map { row in
            ReceivedMessage(cursor: try row.decode(Int64.self, column: 10), message: try message(row, bodies))
        }
    }
}
