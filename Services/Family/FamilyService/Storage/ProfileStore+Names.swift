import KindredHandlers
import KindredPostgres

/// People's sealed names (`ProfileNames`) as the statements that join `family.profiles` read them, and what
/// `keys rotate-data` reads and writes of them.
extension ProfileStore {
    /// A name from a row that read its plaintext column (empty once sealed) at `plain`, and the person's id and
    /// the sealed column at `user` and `user + 1`; empty when the row joined no profile.
    static func name(
        _ row: PostgresRow, plain: Int, user: Int, _ text: SealedText<UserID>
    ) throws -> String {
        guard let person = try row.decode(UserID?.self, column: user) else { return "" }
        let sealed = try row.decode([UInt8]?.self, column: user + 1)
        let plainText = sealed == nil ? try row.decode(String?.self, column: plain) : nil
        return try text.open(StoredText(plain: plainText, sealed: sealed), of: person)
    }

    /// Up to `limit` profiles after `after` (nil: from the first), by user id, with their stored `column`.
    static func names(_ column: ProfileNames.Column, after: UserID?, limit: Int, on db: PostgresPool)
        async throws -> [(UserID, StoredText)]
    {
        try await db.pureRead(
            """
            SELECT user_id, \(unsafeSQL: column.rawValue), \(unsafeSQL: column.rawValue)_sealed FROM family.profiles
            WHERE user_id > coalesce(\(after)::uuid, '00000000-0000-0000-0000-000000000000')
            ORDER BY user_id LIMIT \(limit)
            """
        ).decode((UserID, String, [UInt8]?).self).map {
            ($0, StoredText(plain: $2 == nil ? $1 : nil, sealed: $2))
        }
    }

    /// Replaces `column` of `user` with `sealed`, if it is still the one read (`was`).
    static func reseal(
        _ column: ProfileNames.Column, of user: UserID, was: StoredText, as sealed: [UInt8],
        in tx: PostgresTransaction
    ) async throws {
        try await tx.query(
            """
            UPDATE family.profiles
            SET \(unsafeSQL: column.rawValue)_sealed = \(sealed)::bytea, \(unsafeSQL: column.rawValue) = ''
            WHERE user_id = \(user)::uuid
              AND \(unsafeSQL: column.rawValue)_sealed IS NOT DISTINCT FROM \(was.sealed)::bytea
            """)
    }
}
