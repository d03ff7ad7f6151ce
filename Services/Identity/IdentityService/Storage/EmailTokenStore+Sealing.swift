import KindredPostgres

/// What `keys rotate-data` reads and writes of `identity.email_tokens`: the new dates of birth requested changes
/// carry, as stored, by token hash.
extension EmailTokenStore {
    /// Up to `limit` tokens carrying a date after `after` in token-hash order, with the date as stored, and the
    /// hash the next batch starts after (nil at the end).
    static func storedNewBirthDates(after: [UInt8]?, limit: Int, on db: some StatementRunner) async throws
        -> (rows: [(key: [UInt8], stored: StoredBirthDate)], next: [UInt8]?)
    {
        let rows = try await db.pureRead(
            """
            SELECT token_hash, new_date_of_birth::text, new_date_of_birth_sealed FROM identity.email_tokens
            WHERE token_hash > coalesce(\(after)::bytea, ''::bytea)
                AND (new_date_of_birth IS NOT NULL OR new_date_of_birth_sealed IS NOT NULL)
            ORDER BY token_hash LIMIT \(limit)
            """)
        let dates = try rows.map { row in
            let (hash, plain, sealed) = try row.decode(([UInt8], String?, [UInt8]?).self)
            return (key: hash, stored: StoredBirthDate(plain: plain, sealed: sealed))
        }
        return (dates, dates.count < limit ? nil : dates.last?.key)
    }

    /// Replaces the new date of birth of token `hash` with `sealed`, unless it changed since it was read.
    static func resealNewBirthDate(
        of hash: [UInt8], from stored: StoredBirthDate, to sealed: [UInt8], in tx: PostgresTransaction
    ) async throws {
        try await tx.query(
            """
            UPDATE identity.email_tokens SET new_date_of_birth = NULL, new_date_of_birth_sealed = \(sealed)::bytea
            WHERE token_hash = \(hash)::bytea AND new_date_of_birth IS NOT DISTINCT FROM \(stored.plain)::date
                AND new_date_of_birth_sealed IS NOT DISTINCT FROM \(stored.sealed)::bytea
            """)
    }
}
