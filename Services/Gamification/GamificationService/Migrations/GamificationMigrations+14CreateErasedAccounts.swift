import KindredPostgres

extension GamificationMigrations {
    /// The accounts identity deleted in the last 30 days: an upload made with a token still valid after the
    /// deletion could store usage again, which the daily usage retention job removes while the account is
    /// listed here.
    static let v14CreateErasedAccounts = Migration(
        version: 14, name: "create_erased_accounts",
        sql: """
            CREATE TABLE gamification.erased_accounts (
                user_id uuid PRIMARY KEY,
                erased_at timestamptz NOT NULL
            );
            """)
}
