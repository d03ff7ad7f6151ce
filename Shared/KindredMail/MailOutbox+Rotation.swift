internal import FoundationEssentials
public import KindredPostgres

/// What `keys rotate-data` does to the outbox: the unsent mails still in plaintext (queued before sealing
/// began) or sealed under an older key are sealed under the current one.
extension MailOutbox {
    /// Re-seals the stale mails among up to `limit` unsent rows after row `after` (nil: from the first), in one
    /// transaction, each only if it is unchanged since it was read (not sent meanwhile, not re-sealed by a
    /// rotation running twice); how many, and the row the next batch starts after (nil after the last).
    public func resealBatch(after: Int?, limit: Int, on database: PostgresPool) async throws
        -> (resealed: Int, next: Int?)
    {
        let rows = try await database.query(
            """
            SELECT id, recipient, subject, body, mail_sealed, message_id::text FROM \(table: self)
            WHERE sent_at IS NULL AND id > \(after ?? 0) ORDER BY id LIMIT \(limit)
            """
        ).decode((Int, String?, String?, String?, [UInt8]?, String).self)
        let stale = try rows.filter { !cipher.isCurrent($0.4) }.compactMap {
            row -> (Int, [UInt8]?, [UInt8])? in
            guard let mail = try open(plain: (row.1, row.2, row.3), sealed: row.4, messageID: row.5) else {
                return nil
            }
            return (row.0, row.4, seal(mail, messageID: row.5))
        }
        if !stale.isEmpty {
            try await database.transaction { tx in
                for (id, was, sealed) in stale {
                    try await tx.query(
                        """
                        UPDATE \(table: self)
                        SET mail_sealed = \(sealed)::bytea, recipient = NULL, subject = NULL, body = NULL
                        WHERE id = \(id) AND sent_at IS NULL AND mail_sealed IS NOT DISTINCT FROM \(was)::bytea
                        """)
                }
            }
        }
        return (stale.count, rows.count < limit ? nil : rows.last?.0)
    }
}
