import KindredPostgres

extension SocialMigrations {
    /// The content people make and others report: direct messages and events with their media. The parts
    /// that own them (messages, events) add what only they read in their own migrations.
    static let v3CreateContent = Migration(
        version: 3, name: "create_content",
        sql: """
            -- A conversation between two people, held once per participant (led by the user it is listed for),
            -- both rows sharing one conversation_id.
            CREATE TABLE social.conversations (
                user_id uuid NOT NULL,
                other_id uuid NOT NULL,
                conversation_id uuid NOT NULL,
                last_message_id uuid NOT NULL,
                last_message_at timestamptz NOT NULL,
                PRIMARY KEY (user_id, other_id)
            );
            CREATE INDEX conversations_recent ON social.conversations (user_id, last_message_at DESC, conversation_id);
            CREATE INDEX conversations_by_id ON social.conversations (conversation_id);

            -- Ids are UUIDv7: a conversation reads newest first by id. request_id is the sender's idempotency key.
            CREATE TABLE social.messages (
                conversation_id uuid NOT NULL,
                id uuid NOT NULL,
                sender_id uuid NOT NULL,
                recipient_id uuid NOT NULL,
                body text NOT NULL,
                sent_at timestamptz NOT NULL,
                request_id text NOT NULL,
                PRIMARY KEY (conversation_id, id)
            );
            CREATE UNIQUE INDEX messages_request ON social.messages (sender_id, request_id);
            CREATE INDEX messages_by_id ON social.messages (id);

            CREATE TABLE social.events (
                id uuid PRIMARY KEY,
                organizer_id uuid NOT NULL,
                title text NOT NULL,
                description text NOT NULL,
                starts_at timestamptz NOT NULL,
                ends_at timestamptz,
                place text NOT NULL,
                public boolean NOT NULL,
                mature boolean NOT NULL,
                created_at timestamptz NOT NULL,
                request_id text NOT NULL,
                UNIQUE (organizer_id, request_id)
            );
            CREATE INDEX events_public ON social.events (created_at DESC, id) WHERE public;
            CREATE INDEX events_by_organizer ON social.events (organizer_id, created_at DESC, id);

            CREATE TABLE social.event_media (
                id uuid PRIMARY KEY,
                event_id uuid NOT NULL,
                position smallint NOT NULL,
                url text NOT NULL,
                content_type text NOT NULL,
                flagged boolean NOT NULL,
                UNIQUE (event_id, position)
            );
            """)
}
