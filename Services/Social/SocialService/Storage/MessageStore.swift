import KindredAuth
import KindredEvents
import KindredHandlers
import KindredPostgres

/// `social.conversations`, `social.messages` and `social.message_inboxes`: sending here, reading in
/// `MessageStore+Reads.swift`, the stream's reads and wake-ups in `MessageStore+Inbox.swift`.
enum MessageStore {
    /// Writes `message`, sent with `requestID`, its body sealed by `bodies`, in one statement (its own
    /// transaction, on the event loop's connection): both sides of the pair's conversation pointing at it, the
    /// message numbered next in its recipient's inbox (whose row stays locked until the statement commits, see migration 4), and, when
    /// `newContact` is given and this message opens the conversation, that event in the outbox (what
    /// `EventOutbox.append` writes). Answers the conversation the message went into.
    ///
    /// The two conversation rows are written in user-id order, so first messages crossing between the same
    /// two people meet on the first row: the later waits for the earlier, then updates the rows it made and
    /// takes its conversation id. `message.conversationID` is only a candidate, used when the conversation is
    /// new (then `newContact`, made with it, is right). A request_id the sender used before fails the whole
    /// statement with a unique violation (SQLSTATE 23505), so nothing of this send stays.
    static func insert(
        _ message: StoredMessage, requestID: String, newContact: [UInt8]?, bodies: MessageBodies,
        on db: some StatementRunner
    ) async throws -> ConversationID {
        let (id, candidate, sender, recipient, at) = (
            message.id, message.conversationID, message.sender.id, message.recipientID, message.sentAt
        )
        let (first, second) = sender < recipient ? (sender, recipient) : (recipient, sender)
        let sealed = bodies.seal(message.body, of: id)
        let contact = newContact.map {
            SocialEvents.outbox.seal($0, type: "message.new_contact", with: bodies.cipher)
        }
        // Rendered only for a send that may open a conversation: other sends bind a NULL.
        let trace = newContact == nil ? nil : EventOutbox.writersTraceparent
        let rows = try await db.query(
            """
            WITH sides AS (
                INSERT INTO social.conversations AS c
                    (user_id, other_id, conversation_id, last_message_id, last_message_at)
                VALUES (\(first)::uuid, \(second)::uuid, \(candidate)::uuid, \(id)::uuid, \(at)),
                    (\(second)::uuid, \(first)::uuid, \(candidate)::uuid, \(id)::uuid, \(at))
                ON CONFLICT (user_id, other_id) DO UPDATE
                SET last_message_id = excluded.last_message_id, last_message_at = excluded.last_message_at
                RETURNING c.user_id, c.conversation_id, c.xmax = 0 AS opened),
            inbox AS (
                INSERT INTO social.message_inboxes AS i (user_id, last_seq) VALUES (\(recipient)::uuid, 1)
                ON CONFLICT (user_id) DO UPDATE SET last_seq = i.last_seq + 1
                RETURNING last_seq),
            sent AS (
                INSERT INTO social.messages
                    (conversation_id, id, sender_id, recipient_id, body_sealed, sent_at, request_id, recipient_seq)
                SELECT s.conversation_id, \(id)::uuid, \(sender)::uuid, \(recipient)::uuid, \(sealed)::bytea, \(at),
                    \(requestID), inbox.last_seq
                FROM sides s, inbox WHERE s.user_id = \(recipient)::uuid
                RETURNING conversation_id),
            contact AS (
                INSERT INTO social.event_outbox (type, payload, traceparent)
                SELECT 'message.new_contact', \(contact)::bytea, \(trace)::text FROM sides s
                WHERE s.user_id = \(recipient)::uuid AND s.opened AND \(contact)::bytea IS NOT NULL)
            SELECT conversation_id::text FROM sent
            """)
        return try rows[0].decode(ConversationID.self)
    }
}
