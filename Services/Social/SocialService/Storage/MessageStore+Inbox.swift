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

    /// For each recipient in `positions`, up to `limit` of the messages they received after their position, in
    /// order, each with its position (its cursor); those from someone blocked either way are left out. One
    /// statement for every recipient whose `WatchMessages` streams woke together (`RecipientBell`); a recipient
    /// without any is left out.
    static func received(
        after positions: [UserID: Int64], limit: Int, bodies: MessageBodies, on db: some StatementRunner
    ) async throws -> [UserID: [ReceivedMessage]] {
        let (recipients, seqs) = (Array(positions.keys), Array(positions.values))
        let rows = try await db.pureRead(
            """
            SELECT v.id, v.conversation_id, v.sender_id, v.sender_username, v.sender_minor, v.recipient_id, v.body,
                v.sent_at, v.reporters, v.body_sealed, v.recipient_seq
            FROM unnest(\(PostgresArray(recipients))::uuid[], \(PostgresArray(seqs))::int8[]) AS r(id, after)
            CROSS JOIN LATERAL (
                SELECT v.* FROM social.shown_messages v
                WHERE v.recipient_id = r.id AND v.recipient_seq > r.after
                    AND NOT EXISTS (SELECT 1 FROM social.blocks WHERE blocker_id = r.id AND blocked_id = v.sender_id)
                    AND NOT EXISTS (SELECT 1 FROM social.blocks WHERE blocker_id = v.sender_id AND blocked_id = r.id)
                ORDER BY v.recipient_seq
                LIMIT \(limit)) v
            """)
        var received: [UserID: [ReceivedMessage]] = [:]
        for row in rows {
            received[try row.decode(UserID.self, column: 5), default: []].append(
                ReceivedMessage(
                    cursor: try row.decode(Int64.self, column: 10), message: try message(row, bodies)))
        }
        // Each recipient's rows come in order from their LATERAL scan; sorted again, as SQL promises no order
        // without ORDER BY.
        return received.mapValues { $0.sorted { $0.cursor < $1.cursor } }
    }
}
