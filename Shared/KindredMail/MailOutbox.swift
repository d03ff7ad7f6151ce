public import KindredPostgres

/// A service's mail outbox, the table `<schema>.mail_outbox`: a message is written in the same transaction
/// as the change it reports, and a `MailDeliveryWorker` sends it after that transaction commits.
public struct MailOutbox: Sendable {
    /// The sending service's own schema.
    public let schema: String

    /// The outbox in `schema`: lowercase letters, digits and underscores, at most 51 characters. The name is
    /// written in the service's source, so a bad one is a programming error and stops the process.
    public init(schema: String) {
        let bytes = schema.utf8
        precondition(
            (1...51).contains(bytes.count) && !(48...57).contains(bytes.first!)
                && bytes.allSatisfy { (97...122).contains($0) || (48...57).contains($0) || $0 == 95 },
            "mail outbox schema \"\(schema)\" is not a lowercase identifier of at most 51 characters")
        self.schema = schema
    }

    /// The table, schema-qualified.
    var table: String { "\(schema).mail_outbox" }

    /// The NOTIFY channel an enqueue wakes the workers on.
    var channel: String { "\(schema)_mail_outbox" }

    /// The migration creating the table, for the service's own migration list. Its SQL never changes
    /// (the runner checks it): a later change to the table will come as a further migration.
    public func migration(version: Int) -> Migration {
        Migration(
            version: version, name: "create_mail_outbox",
            sql: """
                CREATE TABLE \(table) (
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
                CREATE INDEX mail_outbox_due ON \(table) (next_attempt_at) WHERE sent_at IS NULL;
                CREATE INDEX mail_outbox_sent ON \(table) (sent_at) WHERE sent_at IS NOT NULL;
                """)
    }

    /// Writes `message` inside the caller's transaction: it is sent only if that transaction commits.
    public func enqueue(_ message: MailMessage, in transaction: PostgresTransaction) async throws {
        try await transaction.query(insert(message))
    }

    /// Writes `message` in a transaction of its own.
    public func enqueue(_ message: MailMessage, on database: PostgresPool) async throws {
        try await database.query(insert(message))
    }

    /// The insert, and a notification that PostgreSQL delivers to the workers when the transaction commits.
    private func insert(_ message: MailMessage) -> PostgresQuery {
        """
        WITH mail AS (
            INSERT INTO \(table: self) (kind, recipient, subject, body)
            VALUES (\(message.kind), \(message.to), \(message.subject), \(message.body)) RETURNING id)
        SELECT pg_notify(\(channel), '') FROM mail
        """
    }
}

extension PostgresQuery.StringInterpolation {
    /// The outbox's table as SQL text; safe because `MailOutbox` admits only plain identifiers.
    mutating func appendInterpolation(table outbox: MailOutbox) {
        appendLiteral(outbox.table)
    }
}
