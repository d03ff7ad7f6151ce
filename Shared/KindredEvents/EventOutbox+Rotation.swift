public import KindredAuth
public import KindredPostgres

/// What `keys rotate-data` does to an outbox: the payloads still in plaintext (appended before sealing began)
/// or sealed under an older key are sealed under the current one.
extension EventOutbox {
    /// Re-seals the stale payloads among up to `limit` rows after row `after` (nil: from the first), in one
    /// transaction, each only if it is unchanged since it was read (not re-sealed by a rotation running twice;
    /// a pruned row is simply gone); how many, and the row the next batch starts after (nil after the last).
    public func resealBatch(after: Int64?, limit: Int, cipher: FieldCipher, on database: PostgresPool)
        async throws -> (resealed: Int, next: Int64?)
    {
        let rows = try await database.query(
            "SELECT id, type, payload FROM \(table) WHERE id > \(after ?? 0) ORDER BY id LIMIT \(limit)"
        ).decode((Int64, String, [UInt8]).self)
        let stale = try rows.filter { !cipher.isCurrent($0.2) }.map { id, type, was in
            (id, was, seal(try self.open(was, type: type, with: cipher), type: type, with: cipher))
        }
        if !stale.isEmpty {
            try await database.transaction { tx in
                for (id, was, sealed) in stale {
                    try await tx.query(
                        "UPDATE \(table) SET payload = \(sealed) WHERE id = \(id) AND payload = \(was)")
                }
            }
        }
        return (stale.count, rows.count < limit ? nil : rows.last?.0)
    }
}
