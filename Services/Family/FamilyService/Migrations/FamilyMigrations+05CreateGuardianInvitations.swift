import KindredPostgres

extension FamilyMigrations {
    /// Guardian invitations: the single-use links a minor mails to a would-be guardian.
    static let v5CreateGuardianInvitations = Migration(
        version: 5, name: "create_guardian_invitations",
        sql: """
            -- The token is kept only as its SHA-256. request_id makes InviteGuardian idempotent per minor;
            -- accepted_by remembers who used the link, so that the same guardian accepting again gets the
            -- link back rather than LINK_ALREADY_USED.
            CREATE TABLE family.guardian_invitations (
                id uuid PRIMARY KEY,
                minor_id uuid NOT NULL,
                request_id text NOT NULL,
                guardian_email text NOT NULL,
                token_hash bytea NOT NULL UNIQUE,
                created_at timestamptz NOT NULL,
                expires_at timestamptz NOT NULL,
                accepted_at timestamptz,
                accepted_by uuid,
                UNIQUE (minor_id, request_id)
            );
            CREATE INDEX guardian_invitations_minor ON family.guardian_invitations (minor_id, created_at);
            CREATE INDEX guardian_invitations_accepted_by ON family.guardian_invitations (accepted_by)
                WHERE accepted_by IS NOT NULL;
            """)
}
