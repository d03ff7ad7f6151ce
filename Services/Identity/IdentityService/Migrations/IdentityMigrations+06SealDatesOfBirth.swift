import KindredPostgres

extension IdentityMigrations {
    /// Dates of birth sealed at rest (`BirthDates`: AES-256-GCM under identity's data keys, bound to the row):
    /// new accounts and requested changes store only the sealed column; rows written before keep their plaintext
    /// date until `kindred-identity keys rotate-data` seals them, and are read as they are meanwhile. An account
    /// has exactly one of the two; an email token at most one (only a date-of-birth confirmation carries a date).
    /// The coming-of-age sweep can no longer compare dates in SQL: it walks the minors by id
    /// (`Accounts+ComingOfAge.swift`), so the index by birth date gives way to one of the minors' ids.
    static let v6SealDatesOfBirth = Migration(
        version: 6, name: "seal_dates_of_birth",
        sql: """
            ALTER TABLE identity.accounts
                ADD COLUMN date_of_birth_sealed bytea,
                ALTER COLUMN date_of_birth DROP NOT NULL,
                ADD CONSTRAINT accounts_one_date_of_birth
                    CHECK ((date_of_birth IS NULL) <> (date_of_birth_sealed IS NULL));
            ALTER TABLE identity.email_tokens
                ADD COLUMN new_date_of_birth_sealed bytea,
                ADD CONSTRAINT email_tokens_one_new_date_of_birth
                    CHECK (new_date_of_birth IS NULL OR new_date_of_birth_sealed IS NULL);
            DROP INDEX identity.accounts_minors_by_birth;
            CREATE INDEX accounts_minors ON identity.accounts (id) WHERE age_band <> '18+';
            """)
}
