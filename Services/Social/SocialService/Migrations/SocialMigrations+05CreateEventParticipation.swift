import KindredPostgres

extension SocialMigrations {
    /// Who takes part in events (attendees, invitations) and the guardian approvals the events part keeps:
    /// a minor's join of an event, a minor's view of a flagged media item. Each leads with the key it is read
    /// by, so that it can be distributed as it is.
    static let v5CreateEventParticipation = Migration(
        version: 5, name: "create_event_participation",
        sql: """
            -- Kept by the join and leave that change social.event_attendees, in their transaction, so that a
            -- feed page reads its counts without counting.
            ALTER TABLE social.events ADD COLUMN attendee_count integer NOT NULL DEFAULT 0;
            -- The feed walks each followed person's private events newest first (their public ones come
            -- through events_public).
            CREATE INDEX events_private_by_organizer ON social.events (organizer_id, created_at DESC, id DESC)
                WHERE NOT public;

            CREATE TABLE social.event_attendees (
                event_id uuid NOT NULL,
                user_id uuid NOT NULL,
                joined_at timestamptz NOT NULL,
                PRIMARY KEY (event_id, user_id)
            );

            -- Invited people may see (and join) a private event.
            CREATE TABLE social.event_invitations (
                event_id uuid NOT NULL,
                user_id uuid NOT NULL,
                invited_at timestamptz NOT NULL,
                PRIMARY KEY (event_id, user_id)
            );

            -- Family's approval request for a minor's join of an event, and its state as social last learned
            -- it (kindred.family.v1.ApprovalState's numbers: 1 pending, 2 approved, 3 denied): a decided one
            -- is not asked of family again.
            CREATE TABLE social.event_join_approvals (
                minor_id uuid NOT NULL,
                event_id uuid NOT NULL,
                approval_id uuid NOT NULL,
                state smallint NOT NULL CHECK (state IN (1, 2, 3)),
                PRIMARY KEY (minor_id, event_id)
            );

            -- The same for a minor's view of a flagged media item (social.event_media).
            CREATE TABLE social.media_view_approvals (
                minor_id uuid NOT NULL,
                media_id uuid NOT NULL,
                approval_id uuid NOT NULL,
                state smallint NOT NULL CHECK (state IN (1, 2, 3)),
                PRIMARY KEY (minor_id, media_id)
            );
            """)
}
