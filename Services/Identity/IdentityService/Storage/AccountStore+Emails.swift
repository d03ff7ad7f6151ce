import KindredHandlers
import KindredPostgres

/// What `keys rotate-data` reads and writes of the accounts' emails (`EmailRotation`).
extension AccountStore {
    /// Up to `limit` accounts after `after` (nil: from the first), by id, with their stored email.
    static func storedEmails(after: UserID?, limit: Int, on db: PostgresPool) async throws
        -> [(id: UserID, plain: String?, sealed: [UInt8]?)]
    {
        try await db.pureRead(
            """
            SELECT id::text, email, email_sealed FROM identity.accounts
            WHERE id > coalesce(\(after)::uuid, '00000000-0000-0000-0000-000000000000')
            ORDER BY id LIMIT \(limit)
            """
        ).decode((UserID, String?, [UInt8]?).self).map { (id: $0, plain: $1, sealed: $2) }
    }

    /// Stores `sealed` and `index` as the email of `id` (the plaintext dropped), if its sealed value is still the
    /// one read (`was`).
    static func resealEmail(
        of id: UserID, was: [UInt8]?, as sealed: [UInt8], index: [UInt8], in tx: PostgresTransaction
    ) async throws {
        try await tx.query(
            """
            UPDATE identity.accounts SET email_sealed = \(sealed)::bytea, email_index = \(index)::bytea, email = NULL
            WHERE id = \(id)::uuid AND email_sealed IS NOT DISTINCT FROM \(was)::bytea
            """)
    }
}
