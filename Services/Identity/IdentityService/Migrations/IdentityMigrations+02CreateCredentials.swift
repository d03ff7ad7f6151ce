import KindredPostgres

extension IdentityMigrations {
    /// What sign-in keeps: refresh-token chains, the failed sign-in counters, and the sealed signing keys.
    static let v2CreateCredentials = Migration(
        version: 2, name: "create_credentials",
        sql: """
            -- A sign-in starts a chain; each refresh rotates its token. Revoking the chain ends every token in it.
            CREATE TABLE identity.refresh_chains (
                id uuid PRIMARY KEY,
                account_id uuid NOT NULL REFERENCES identity.accounts (id) ON DELETE CASCADE,
                created_at timestamptz NOT NULL DEFAULT now(),
                -- When its newest token expires: the sweep deletes chains past it.
                expires_at timestamptz NOT NULL,
                revoked_at timestamptz
            );
            CREATE INDEX refresh_chains_live_by_account ON identity.refresh_chains (account_id)
                WHERE revoked_at IS NULL;

            -- Every token a chain handed out, as SHA-256 of its text. A rotated one stays until it would have
            -- expired, so presenting it again is recognised as reuse and ends the chain.
            CREATE TABLE identity.refresh_tokens (
                token_hash bytea PRIMARY KEY,
                chain_id uuid NOT NULL REFERENCES identity.refresh_chains (id) ON DELETE CASCADE,
                issued_at timestamptz NOT NULL DEFAULT now(),
                expires_at timestamptz NOT NULL,
                rotated_at timestamptz
            );
            CREATE INDEX refresh_tokens_by_chain ON identity.refresh_tokens (chain_id);
            CREATE INDEX refresh_tokens_by_expiry ON identity.refresh_tokens (expires_at);

            -- Failed sign-ins in a row per identifier as typed (username or email, lower-cased), keyed by its
            -- BLAKE2b hash under the service secret: unknown identifiers are counted exactly like real ones.
            CREATE TABLE identity.sign_in_failures (
                identifier_hash bytea PRIMARY KEY,
                failures integer NOT NULL CHECK (failures > 0),
                last_failure_at timestamptz NOT NULL,
                locked_until timestamptz
            );
            CREATE INDEX sign_in_failures_by_age ON identity.sign_in_failures (last_failure_at);

            -- Ed25519 signing keys, the seed sealed with XChaCha20-Poly1305 under the service secret (kid as
            -- associated data). The one key not yet superseded signs; the others only verify, then go.
            CREATE TABLE identity.signing_keys (
                kid text PRIMARY KEY,
                public_key bytea NOT NULL CHECK (length(public_key) = 32),
                sealed_seed bytea NOT NULL,
                created_at timestamptz NOT NULL DEFAULT now(),
                superseded_at timestamptz
            );
            CREATE UNIQUE INDEX signing_keys_one_signer ON identity.signing_keys ((superseded_at IS NULL))
                WHERE superseded_at IS NULL;
            """)
}
