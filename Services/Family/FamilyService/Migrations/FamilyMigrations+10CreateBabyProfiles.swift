import KindredPostgres

extension FamilyMigrations {
    /// Baby profiles and their members. Every table of a profile's content is keyed by `profile_id` first, so
    /// that it can be distributed by it (Citus) and a profile's reads touch one key range.
    static let v10CreateBabyProfiles = Migration(
        version: 10, name: "create_baby_profiles",
        sql: """
            CREATE TABLE family.baby_profiles (
                profile_id uuid PRIMARY KEY,
                -- The owner who created it: with no name, the profile is shown as "Baby <their last name>".
                created_by uuid NOT NULL,
                name text,
                expected_birth_date date,
                -- kindred.family.v1.BabyGender's number; 0 unspecified.
                gender smallint NOT NULL DEFAULT 0,
                photo_id uuid,
                -- False once no owner's account remains: nobody reads or writes it; the data stays for retention.
                active boolean NOT NULL DEFAULT true,
                created_at timestamptz NOT NULL,
                updated_at timestamptz NOT NULL
            );

            -- Who belongs to a profile and as what: an owner (at most two) or a follower.
            CREATE TABLE family.baby_members (
                profile_id uuid NOT NULL REFERENCES family.baby_profiles ON DELETE CASCADE,
                user_id uuid NOT NULL,
                -- BabyRole: 1 owner, 2 follower.
                role smallint NOT NULL CHECK (role IN (1, 2)),
                -- kindred.family.v1.Relationship's number, and the text of "Other"; owners have none.
                relationship smallint NOT NULL DEFAULT 0,
                relationship_other text NOT NULL DEFAULT '',
                joined_at timestamptz NOT NULL,
                PRIMARY KEY (profile_id, user_id)
            );
            -- A user's profiles, for the switcher and every list that spans "all my profiles".
            CREATE INDEX baby_members_by_user ON family.baby_members (user_id, role, profile_id);
            """)
}
