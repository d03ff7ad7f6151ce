import KindredPostgres

/// `social.conversations`, `social.messages` and `social.message_inboxes`: sending here, reading in
/// `MessageStore+Reads.swift`, the stream's reads and wake-ups in `MessageStore+Inbox.swift`.
enum MessageStore {
    /// Makes every other send between `one` and `other`, either way, wait until `tx` ends: their first
    /// messages crossing must agree on one conversation, and a retry must find the message it repeats.
    static func lockPair(_ one: String, _ other: String, in tx: PostgresTransaction) async throws {
        let pair = one < other ? "social.conversation \(one) \(other)" : "social.conversation \(other) \(one)"
        try await tx.query("SELECT pg_advisory_xact_lock(hashtextextended(\(pair)::text, 0))")
    }

    /// The conversation `userID` has with `otherID`, if any.
    static func conversationID(of userID: String, with otherID: String, in tx: PostgresTransaction)
        async throws -> String?
    {
        try await tx.query(
            """
            SELECT conversation_id::text FROM social.conversations
            WHERE user_id = \(userID) AND other_id = \(otherID)
            """
        ).first?.decode(String.self)
    }

    /// Writes `message`, sent with `requestID`, in one statement: the message, numbered next in its
    /// recipient's inbox (whose row stays locked until `tx` commits, see migration 4), and both sides of its
    /// conversation pointing at it. False when the sender already used the request_id: then `tx` must roll
    /// back, since the conversation and the inbox were written all the same.
    static func insert(_ message: StoredMessage, requestID: String, in tx: PostgresTransaction) async throws
        -> Bool
    {
        let (id, conversation, sender, recipient, at) = (
            message.id, message.conversationID, message.sender.id, message.recipientID, message.sentAt
        )
        let written = try await tx.query(
            """
            WITH sides AS (
                INSERT INTO social.conversations AS c
                    (user_id, other_id, conversation_id, last_message_id, last_message_at)
                VALUES (\(sender)::uuid, \(recipient)::uuid, \(conversation)::uuid, \(id)::uuid, \(at)),
                    (\(recipient)::uuid, \(sender)::uuid, \(conversation)::uuid, \(id)::uuid, \(at))
                ON CONFLICT (user_id, other_id) DO UPDATE
                SET last_message_id = excluded.last_message_id, last_message_at = excluded.last_message_at),
            inbox AS (
                INSERT INTO social.message_inboxes AS i (user_id, last_seq) VALUES (\(recipient)::uuid, 1)
                ON CONFLICT (user_id) DO UPDATE SET last_seq = i.last_seq + 1
                RETURNING last_seq)
            INSERT INTO social.messages
                (conversation_id, id, sender_id, recipient_id, body, sent_at, request_id, recipient_seq)
            SELECT \(conversation)::uuid, \(id)::uuid, \(sender)::uuid, \(recipient)::uuid, \(message.body), \(at),
                \(requestID), last_seq
            FROM inbox
            ON CONFLICT (sender_id, request_id) DO NOTHING
            RETURNING 1
            """)
        return !written.isEmpty
    }
}
