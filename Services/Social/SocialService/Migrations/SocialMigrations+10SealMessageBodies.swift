import KindredPostgres

extension SocialMigrations {
    /// Message bodies sealed at rest (`MessageBodies`: AES-256-GCM under social's data keys, bound to the
    /// message): new messages store `body_sealed` only; messages written before keep their plaintext `body`
    /// until `kindred-social keys rotate-data` seals them, and are read as they are meanwhile. Each message has
    /// exactly one of the two. `shown_messages` gains the sealed column, last (a view only grows at its end).
    static let v10SealMessageBodies = Migration(
        version: 10, name: "seal_message_bodies",
        sql: """
            ALTER TABLE social.messages
                ADD COLUMN body_sealed bytea,
                ALTER COLUMN body DROP NOT NULL,
                ADD CONSTRAINT messages_one_body CHECK ((body IS NULL) <> (body_sealed IS NULL));
            CREATE OR REPLACE VIEW social.shown_messages AS
            SELECT m.conversation_id, m.id, m.sender_id, s.username AS sender_username, s.minor AS sender_minor,
                m.recipient_id, m.recipient_seq, m.body, m.sent_at, m.request_id,
                coalesce(t.reporters, 0) AS reporters, m.body_sealed
            FROM social.messages m
            JOIN social.people s ON s.user_id = m.sender_id
            LEFT JOIN social.report_tallies t ON t.content_kind = 2 AND t.content_id = m.id;
            """)
}
