import KindredPostgres

extension FamilyMigrations {
    /// The invitations that bring a baby profile's co-owner and followers in, and the request ids that make
    /// `CreateBabyProfile` idempotent.
    static let v12CreateBabyInvitations = Migration(
        version: 12, name: "create_baby_invitations",
        sql: """
            -- Keyed by profile first, like every table of a profile. The token is kept only as its SHA-256;
            -- a resend replaces it (the old link is dead) and moves sent_at and expires_at. request_id makes
            -- InviteToBabyProfile idempotent per profile.
            CREATE TABLE family.baby_invitations (
                profile_id uuid NOT NULL REFERENCES family.baby_profiles ON DELETE CASCADE,
                invitation_id uuid NOT NULL,
                invited_by uuid NOT NULL,
                request_id text NOT NULL,
                email text NOT NULL,
                -- BabyRole: 1 owner (the co-owner), 2 follower.
                role smallint NOT NULL CHECK (role IN (1, 2)),
                token_hash bytea NOT NULL,
                sent_at timestamptz NOT NULL,
                expires_at timestamptz NOT NULL,
                accepted_at timestamptz,
                accepted_by uuid,
                revoked_at timestamptz,
                PRIMARY KEY (profile_id, invitation_id),
                UNIQUE (profile_id, request_id)
            );
            -- Not unique: a unique index must lead with the distribution key once the table is distributed,
            -- and 256 random bits do not collide. A link's lookup probes it on every shard.
            CREATE INDEX baby_invitations_by_token ON family.baby_invitations (token_hash);
            -- What an account deletion forgets: the invitations the user accepted (their address).
            CREATE INDEX baby_invitations_accepted_by ON family.baby_invitations (accepted_by)
                WHERE accepted_by IS NOT NULL;

            -- CreateBabyProfile's idempotency keys, keyed by the creating user.
            CREATE TABLE family.baby_profile_requests (
                user_id uuid NOT NULL,
                request_id text NOT NULL,
                profile_id uuid NOT NULL REFERENCES family.baby_profiles ON DELETE CASCADE,
                PRIMARY KEY (user_id, request_id)
            );
            CREATE INDEX baby_profile_requests_by_profile ON family.baby_profile_requests (profile_id);
            """)
}
