import KindredPostgres

extension IdentityMigrations {
    /// Accounts, their single-use email tokens, the only trace a refused under-13 registration leaves, and the
    /// days the coming-of-age sweep has run.
    static let v1CreateAccounts = Migration(
        version: 1, name: "create_accounts",
        sql: """
            CREATE TABLE identity.accounts (
                id uuid PRIMARY KEY,
                username text NOT NULL,
                email text NOT NULL,
                password_hash text NOT NULL,
                date_of_birth date NOT NULL,
                age_band text NOT NULL CHECK (age_band IN ('13-15', '16-17', '18+')),
                age_assurance_method text NOT NULL CHECK (age_assurance_method IN ('self_declared', 'verified_change')),
                age_assured_at timestamptz NOT NULL,
                -- On for minors from registration; the coming-of-age sweep turns it off at 18.
                parental_controls boolean NOT NULL,
                role text NOT NULL DEFAULT 'user' CHECK (role IN ('user', 'admin')),
                email_verified_at timestamptz,
                created_at timestamptz NOT NULL DEFAULT now(),
                -- The RegisterAccount idempotency key: a retry with it returns this account.
                registration_request_id text UNIQUE
            );
            -- Unique ignoring case; the prefix index serves SearchUsers.
            CREATE UNIQUE INDEX accounts_username_key ON identity.accounts (lower(username));
            CREATE UNIQUE INDEX accounts_email_key ON identity.accounts (lower(email));
            CREATE INDEX accounts_username_prefix ON identity.accounts (lower(username) text_pattern_ops);
            -- The coming-of-age sweep reads minors by birthday.
            CREATE INDEX accounts_minors_by_birth ON identity.accounts (date_of_birth) WHERE age_band <> '18+';

            -- Single-use tokens sent by email, stored as SHA-256 of the token text.
            CREATE TABLE identity.email_tokens (
                token_hash bytea PRIMARY KEY,
                account_id uuid NOT NULL REFERENCES identity.accounts (id) ON DELETE CASCADE,
                purpose text NOT NULL CHECK (purpose IN ('verify_email', 'reset_password', 'confirm_date_of_birth')),
                -- confirm_date_of_birth: the date that takes effect once confirmed.
                new_date_of_birth date,
                expires_at timestamptz NOT NULL,
                used_at timestamptz,
                created_at timestamptz NOT NULL DEFAULT now()
            );
            CREATE INDEX email_tokens_account ON identity.email_tokens (account_id, purpose);

            -- Refused under-13 registrations: a count per UTC day and nothing about the person.
            CREATE TABLE identity.refused_registrations (
                day date PRIMARY KEY,
                attempts bigint NOT NULL CHECK (attempts > 0)
            );

            -- One row per UTC day the coming-of-age sweep ran: the first instance to insert it does the day's work.
            CREATE TABLE identity.coming_of_age_runs (
                day date PRIMARY KEY,
                accounts_changed integer NOT NULL,
                swept_at timestamptz NOT NULL
            );
            """)
}
