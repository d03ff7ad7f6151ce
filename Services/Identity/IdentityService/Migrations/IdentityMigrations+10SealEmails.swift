import KindredPostgres

extension IdentityMigrations {
    /// Email addresses are sealed (`AccountEmails`): a new account keeps its address only in `email_sealed`, and
    /// `email_index`, its blind index, is what sign-in, registration and password resets look up, unique as
    /// `lower(email)` was. Accounts from before keep the plaintext (and `accounts_email_key`) until `kindred-identity
    /// keys rotate-data` seals it.
    static let v10SealEmails = Migration(
        version: 10, name: "seal_emails",
        sql: """
            ALTER TABLE identity.accounts
                ADD COLUMN email_sealed bytea,
                ADD COLUMN email_index bytea,
                ALTER COLUMN email DROP NOT NULL;
            CREATE UNIQUE INDEX accounts_email_index ON identity.accounts (email_index);
            """)
}
