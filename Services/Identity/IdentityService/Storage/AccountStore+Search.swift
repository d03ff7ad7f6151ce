import KindredHandlers
import KindredMessages
import KindredPostgres

/// The SQL of `SearchUsers`.
extension AccountStore {
    /// What anyone may see of an account.
    struct PublicAccount: Sendable, Equatable {
        let id: UserID
        let username: String

        /// On the wire.
        var proto: Kindred_Identity_V1_PublicAccount {
            Kindred_Identity_V1_PublicAccount(userID: id.description, username: username)
        }
    }

    /// The public face of account `id`: its id and username, and nothing that needs a key to open.
    static func publicAccount(id: UserID, on db: some StatementRunner) async throws -> PublicAccount? {
        try await db.pureRead("SELECT id::text, username FROM identity.accounts WHERE id = \(id)")
            .decode((UserID, String).self).first.map(PublicAccount.init)
    }

    /// Up to `page.size + 1` matches after `page.after`, so the caller can tell whether another page follows.
    /// The `~>=~` family compares bytes, as `accounts_username_prefix` (text_pattern_ops) is ordered, so the
    /// range scan uses that index whatever the database's collation.
    static func search(_ page: SearchPage, on db: some StatementRunner) async throws -> [PublicAccount] {
        let rows = try await db.pureRead(
            """
            SELECT id::text, username FROM identity.accounts
            WHERE lower(username) ~>=~ \(page.prefix) AND lower(username) ~<~ \(page.upperBound)
              AND lower(username) ~>~ \(page.after)
              AND email_verified_at IS NOT NULL
              AND (age_band = '18+' OR lower(username) = \(page.prefix))
            ORDER BY lower(username) USING ~<~
            LIMIT \(page.size + 1)
            """)
        return try rows.map { row in
            let (id, username) = try row.decode((UserID, String).self)
            return PublicAccount(id: id, username: username)
        }
    }
}
