import KindredPostgres

extension FamilyMigrations {
    /// What every part of the service reads: profiles, who guards whom, each minor's controls, and the in-app
    /// inbox every part posts to.
    static let v1CreateCore = Migration(
        version: 1, name: "create_core",
        sql: """
            CREATE TABLE family.profiles (
                user_id uuid PRIMARY KEY,
                display_name text NOT NULL DEFAULT '',
                first_name text NOT NULL DEFAULT '',
                last_name text NOT NULL DEFAULT '',
                avatar_url text NOT NULL DEFAULT '',
                bio text NOT NULL DEFAULT '',
                updated_at timestamptz NOT NULL
            );

            -- One row per minor, made when identity reports the registration, with every restriction on.
            -- No row: an adult, whose controls are off.
            CREATE TABLE family.parental_controls (
                minor_id uuid PRIMARY KEY,
                active boolean NOT NULL,
                messaging_followed_only boolean NOT NULL,
                public_events_restricted boolean NOT NULL,
                event_join_approval_required boolean NOT NULL,
                content_filtering boolean NOT NULL,
                updated_at timestamptz NOT NULL
            );

            CREATE TABLE family.guardian_links (
                id uuid PRIMARY KEY,
                minor_id uuid NOT NULL,
                guardian_id uuid NOT NULL,
                created_at timestamptz NOT NULL,
                UNIQUE (minor_id, guardian_id)
            );
            CREATE INDEX guardian_links_guardian ON family.guardian_links (guardian_id);

            -- The in-app inbox. Ids are UUIDv7, so an inbox reads newest first by id. An event handler names its
            -- notification with dedup_key, so that seeing the event again posts nothing twice.
            CREATE TABLE family.notifications (
                id uuid PRIMARY KEY,
                recipient_id uuid NOT NULL,
                -- kindred.family.v1.NotificationKind's number.
                kind smallint NOT NULL,
                title text NOT NULL,
                body text NOT NULL,
                subject_user_id uuid,
                dedup_key text,
                created_at timestamptz NOT NULL,
                read_at timestamptz,
                UNIQUE (recipient_id, dedup_key)
            );
            CREATE INDEX notifications_inbox ON family.notifications (recipient_id, id DESC);
            """)
}
