import KindredHandlers
import KindredPostgres

/// What `keys rotate-data` reads and writes of `identity.accounts`: dates of birth as stored, by account id.
extension AccountStore {
    /// Up to `limit` accounts after `after` in id order with their dates of birth as stored, and the id the next
    /// batch starts after (nil at the end).
    static func storedBirthDates(after: UserID?, limit: Int, on db: some StatementRunner) async throws
        -> (rows: [(key: UserID, stored: StoredBirthDate)], next: UserID?)
    {
        let rows = try await db.pureRead(
            """
            SELECT id::text, date_of_birth::text, date_of_birth_sealed FROM identity.accounts
            WHERE id > coalesce(\(after)::uuid, '00000000-0000-0000-0000-000000000000')
            ORDER BY id LIMIT \(limit)
            """)
        let dates = try rows.map { row in
            let (id, plain, sealed) = try row.decode((UserID, String?, [UInt8]?).self)
            return (key: id, stored: StoredBirthDate(plain: plain, sealed: sealed))
        }
        return (dates, dates.count < limit ? nil : dates.last?.key)
    }

    /// Replaces account `id`'s date of birth with `sealed`, unless it changed since it was read as `stored`.
    static func resealBirthDate(
        of id: UserID, from stored: StoredBirthDate, to sealed: [UInt8], in tx: PostgresTransaction
    ) async throws {
        try await tx.query(
            """
            UPDATE identity.accounts SET date_of_birth = NULL, date_of_birth_sealed = \(sealed)::bytea
            WHERE id = \(id) AND date_of_birth IS NOT DISTINCT FROM \(stored.plain)::date
                AND date_of_birth_sealed IS NOT DISTINCT FROM \(stored.sealed)::bytea
            """)
    }
}
