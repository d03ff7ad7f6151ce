import KindredPostgres

extension SocialMigrations {
    /// What `WatchMessages` follows, each user's received messages numbered in the order they committed, and
    /// the one way every read of messages sees them.
    static let v4CreateMessaging = Migration(
        version: 4, name: "create_messaging",
        sql: """
            -- The last number given to a message received by user_id. Sending takes the next one in the
            -- transaction of the message, so the row stays locked until that commits: numbers become visible
            -- in order, with no hole a later commit could fill, and a stream reading "after n" skips nothing.
            CREATE TABLE social.message_inboxes (
                user_id uuid PRIMARY KEY,
                last_seq bigint NOT NULL
            );
            ALTER TABLE social.messages ADD COLUMN recipient_seq bigint;
            UPDATE social.messages m SET recipient_seq = numbered.seq
            FROM (SELECT conversation_id, id, row_number() OVER (PARTITION BY recipient_id ORDER BY id) AS seq
                  FROM social.messages) numbered
            WHERE m.conversation_id = numbered.conversation_id AND m.id = numbered.id;
            INSERT INTO social.message_inboxes (user_id, last_seq)
            SELECT recipient_id, max(recipient_seq) FROM social.messages GROUP BY recipient_id;
            ALTER TABLE social.messages ALTER COLUMN recipient_seq SET NOT NULL;
            CREATE UNIQUE INDEX messages_inbox_order ON social.messages (recipient_id, recipient_seq);

            -- A message as readers are shown it: with its sender, and how many people reported it
            -- (content_kind 2 is kindred.social.v1.ContentKind's MESSAGE).
            CREATE VIEW social.shown_messages AS
            SELECT m.conversation_id, m.id, m.sender_id, s.username AS sender_username, s.minor AS sender_minor,
                m.recipient_id, m.recipient_seq, m.body, m.sent_at, m.request_id,
                coalesce(t.reporters, 0) AS reporters
            FROM social.messages m
            JOIN social.people s ON s.user_id = m.sender_id
            LEFT JOIN social.report_tallies t ON t.content_kind = 2 AND t.content_id = m.id;
            """)
}
