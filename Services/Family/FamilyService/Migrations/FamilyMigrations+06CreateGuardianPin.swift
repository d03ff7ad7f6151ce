import KindredPostgres

extension FamilyMigrations {
    /// The guardian PIN of each minor with its lockout, the PIN reset links, and the guardian sessions a right
    /// PIN opens.
    static let v6CreateGuardianPin = Migration(
        version: 6, name: "create_guardian_pin",
        sql: """
            -- One row per minor whose guardians set a PIN. The wrong attempts in a row and the lock are counted
            -- under this row's lock (SELECT ... FOR UPDATE), so every instance sees the same count.
            CREATE TABLE family.guardian_pins (
                minor_id uuid PRIMARY KEY,
                -- libsodium's Argon2id PHC string.
                pin_hash text NOT NULL,
                failed_attempts integer NOT NULL DEFAULT 0,
                locked_until timestamptz,
                updated_at timestamptz NOT NULL
            );

            -- Mailed "forgot PIN" links, kept only as SHA-256 of the token; a new request marks the older ones used.
            CREATE TABLE family.guardian_pin_resets (
                token_hash bytea PRIMARY KEY,
                minor_id uuid NOT NULL,
                guardian_id uuid NOT NULL,
                -- Where the link went, and so where the confirmation goes.
                email text NOT NULL,
                created_at timestamptz NOT NULL,
                expires_at timestamptz NOT NULL,
                used_at timestamptz
            );
            CREATE INDEX guardian_pin_resets_minor ON family.guardian_pin_resets (minor_id, expires_at);
            -- The links that hold a minor's controls while unexpired: unused, of a guardian still linked to the
            -- minor (an ended link can no longer use its reset, so it blocks nothing). The one definition of a
            -- pending reset, for the reads and the checks alike.
            CREATE VIEW family.open_pin_resets AS
                SELECT r.minor_id, r.expires_at FROM family.guardian_pin_resets r
                WHERE r.used_at IS NULL AND EXISTS (
                    SELECT 1 FROM family.guardian_links l WHERE l.minor_id = r.minor_id AND l.guardian_id = r.guardian_id);

            -- Guardian sessions from VerifyGuardianPin, kept only as SHA-256 of the token: scoped to one minor,
            -- usable only by the guardian who opened it.
            CREATE TABLE family.guardian_sessions (
                token_hash bytea PRIMARY KEY,
                minor_id uuid NOT NULL,
                opened_by uuid NOT NULL,
                created_at timestamptz NOT NULL,
                expires_at timestamptz NOT NULL
            );
            CREATE INDEX guardian_sessions_minor ON family.guardian_sessions (minor_id, expires_at);
            """)
}
