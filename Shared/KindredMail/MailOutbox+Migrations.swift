public import KindredPostgres

/// The outbox's tables, for the service's own migration list. A migration's SQL never changes (the runner
/// checks it): a later change to the table comes as a further migration.
extension MailOutbox {
    /// The migration creating `<schema>.mail_outbox`.
    public static func migration(schema: String, version: Int) -> Migration {
        precondition(isOutboxSchema(schema), "mail outbox schema \"\(schema)\" is not a plain identifier")
        return Migration(
            version: version, name: "create_mail_outbox",
            sql: """
                CREATE TABLE \(schema).mail_outbox (
                    id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
                    kind text NOT NULL,
                    recipient text NOT NULL,
                    subject text NOT NULL,
                    body text NOT NULL,
                    message_id uuid NOT NULL DEFAULT gen_random_uuid(),
                    created_at timestamptz NOT NULL DEFAULT now(),
                    attempts integer NOT NULL DEFAULT 0,
                    next_attempt_at timestamptz NOT NULL DEFAULT now(),
                    last_error text,
                    sent_at timestamptz);
                CREATE INDEX mail_outbox_due ON \(schema).mail_outbox (next_attempt_at) WHERE sent_at IS NULL;
                CREATE INDEX mail_outbox_sent ON \(schema).mail_outbox (sent_at) WHERE sent_at IS NOT NULL;
                """)
    }

    /// The migration that seals the outbox: `mail_sealed` holds a new mail's recipient, subject and body, the
    /// plaintext columns stay empty (rows queued before it keep theirs until sent, or until `keys rotate-data`
    /// seals them), and a sent mail keeps neither.
    public static func sealingMigration(schema: String, version: Int) -> Migration {
        precondition(isOutboxSchema(schema), "mail outbox schema \"\(schema)\" is not a plain identifier")
        return Migration(
            version: version, name: "seal_mail_outbox",
            sql: """
                ALTER TABLE \(schema).mail_outbox
                    ADD COLUMN mail_sealed bytea,
                    ALTER COLUMN recipient DROP NOT NULL,
                    ALTER COLUMN subject DROP NOT NULL,
                    ALTER COLUMN body DROP NOT NULL;
                UPDATE \(schema).mail_outbox SET recipient = NULL, subject = NULL, body = NULL
                WHERE sent_at IS NOT NULL;
                """)
    }
}
