import KindredPostgres

extension FamilyMigrations {
    /// A baby profile's calendar, its RSVPs, and the comments members write on its events (and, with the
    /// gallery, on photos and the arrival announcement). Keyed by `profile_id` first, like all profile content.
    static let v13CreateCalendar = Migration(
        version: 13, name: "create_calendar",
        sql: """
            CREATE TABLE family.calendar_events (
                profile_id uuid NOT NULL REFERENCES family.baby_profiles ON DELETE CASCADE,
                event_id uuid NOT NULL,
                name text NOT NULL,
                start_at timestamptz NOT NULL,
                -- An IANA name PostgreSQL knows (pg_timezone_names).
                time_zone text NOT NULL,
                description text NOT NULL DEFAULT '',
                -- A gallery photo's id, unchecked until the gallery exists.
                photo_id uuid,
                video_call_url text NOT NULL DEFAULT '',
                location text NOT NULL DEFAULT '',
                created_by uuid NOT NULL,
                -- CreateCalendarEvent's idempotency key.
                request_id text NOT NULL,
                created_at timestamptz NOT NULL,
                updated_at timestamptz NOT NULL,
                PRIMARY KEY (profile_id, event_id),
                UNIQUE (profile_id, created_by, request_id)
            );
            -- ListCalendarEvents: a profile's events by start time.
            CREATE INDEX calendar_events_by_start ON family.calendar_events (profile_id, start_at, event_id);

            CREATE TABLE family.calendar_rsvps (
                profile_id uuid NOT NULL,
                event_id uuid NOT NULL,
                user_id uuid NOT NULL,
                -- kindred.family.v1.RsvpAnswer's number: 1 attending, 2 not attending, 3 maybe.
                answer smallint NOT NULL CHECK (answer IN (1, 2, 3)),
                answered_at timestamptz NOT NULL,
                PRIMARY KEY (profile_id, event_id, user_id),
                FOREIGN KEY (profile_id, event_id) REFERENCES family.calendar_events ON DELETE CASCADE
            );

            CREATE TABLE family.baby_comments (
                profile_id uuid NOT NULL REFERENCES family.baby_profiles ON DELETE CASCADE,
                -- UUIDv7: a target's comments oldest first are one index range in id order.
                comment_id uuid NOT NULL,
                -- CommentTarget.Kind: 1 calendar event, 2 photo, 3 the arrival announcement (target_id is then
                -- the profile's id). Not a foreign key, as it points into several tables: deleting a target
                -- deletes its comments in the same transaction.
                target_kind smallint NOT NULL CHECK (target_kind IN (1, 2, 3)),
                target_id uuid NOT NULL,
                author_id uuid NOT NULL,
                body text NOT NULL,
                -- AddComment's idempotency key.
                request_id text NOT NULL,
                created_at timestamptz NOT NULL,
                PRIMARY KEY (profile_id, comment_id),
                UNIQUE (profile_id, author_id, request_id)
            );
            CREATE INDEX baby_comments_by_target
                ON family.baby_comments (profile_id, target_kind, target_id, comment_id);
            """)
}
