import KindredPostgres

extension FamilyMigrations {
    /// A baby profile's recent activity: what members did, newest first for the home page.
    static let v11CreateBabyActivity = Migration(
        version: 11, name: "create_baby_activity",
        sql: """
            CREATE TABLE family.baby_activity (
                profile_id uuid NOT NULL,
                -- UUIDv7: time-ordered, so a profile's newest entries are one backward index scan.
                activity_id uuid NOT NULL,
                -- BabyActivityKind's number.
                kind smallint NOT NULL,
                actor_id uuid NOT NULL,
                -- What the entry is about (an event, a comment, an item, a photo), as its kind says.
                subject_id uuid,
                -- A short description kept with the entry (an event's or an item's name, a comment's start).
                detail text NOT NULL DEFAULT '',
                occurred_at timestamptz NOT NULL,
                PRIMARY KEY (profile_id, activity_id)
            );
            """)
}
