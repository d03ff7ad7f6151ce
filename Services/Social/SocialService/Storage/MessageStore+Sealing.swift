import KindredAuth
import KindredHandlers
import KindredPostgres

/// What `keys rotate-data` reads and writes: message bodies not yet sealed under the current data key.
extension MessageStore {
    /// A stored body as it is: plaintext (written before sealing began) or sealed.
    typealias StoredBody = (conversationID: ConversationID, id: MessageID, plain: String?, sealed: [UInt8]?)

    /// Up to `limit` messages after `after` (by id, the `messages_by_id` index) whose body is plaintext or
    /// sealed under a key other than `cipher`'s current one, and the id the next batch starts after (nil at the end).
    static func staleBodies(after: MessageID?, cipher: FieldCipher, limit: Int, on db: some StatementRunner)
        async throws -> (bodies: [StoredBody], next: MessageID?)
    {
        let rows = try await db.pureRead(
            """
            SELECT conversation_id, id, body, body_sealed
            FROM social.messages
            WHERE id > coalesce(\(after)::uuid, '00000000-0000-0000-0000-000000000000')
            ORDER BY id LIMIT \(limit)
            """)
        let bodies = try rows.compactMap { row -> StoredBody? in
            let sealed = try row.decode([UInt8]?.self, column: 3)
            guard !cipher.isCurrent(sealed) else { return nil }
            return (
                try row.decode(ConversationID.self, column: 0), try row.decode(MessageID.self, column: 1),
                try row.decode(String?.self, column: 2), sealed
            )
        }
        let next = rows.count < limit ? nil : try rows.last?.decode(MessageID.self, column: 1)
        return (bodies, next)
    }

    /// Replaces `body` with `sealed`, unless the row changed since it was read (a rotation running twice).
    static func reseal(_ body: StoredBody, as sealed: [UInt8], in tx: PostgresTransaction) async throws {
        try await tx.query(
            """
            UPDATE social.messages SET body = NULL, body_sealed = \(sealed)::bytea
            WHERE conversation_id = \(body.conversationID)::uuid AND id = \(body.id)::uuid
                AND body IS NOT DISTINCT FROM \(body.plain) AND body_sealed IS NOT DISTINCT FROM \(body.sealed)::bytea
            """)
    }
}
