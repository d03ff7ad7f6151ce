internal import FoundationEssentials
public import KindredAuth
public import KindredPostgres

/// A service's mail outbox, the table `<schema>.mail_outbox`: a message is written in the same transaction
/// as the change it reports, and a `MailDeliveryWorker` sends it after that transaction commits. Its
/// recipient, subject and body are sealed together under the service's data keys (`cipher`), bound to the
/// row's message id, and dropped once the mail is sent: a dump of the table shows no address, no text and no
/// link, only the kind of each mail and when it was queued and sent.
public struct MailOutbox: Sendable {
    /// The sending service's own schema.
    public let schema: String
    /// The service's data keys, which seal each mail.
    public let cipher: FieldCipher

    /// The outbox in `schema`: lowercase letters, digits and underscores, at most 51 characters. The name is
    /// written in the service's source, so a bad one is a programming error and stops the process.
    public init(schema: String, cipher: FieldCipher) {
        precondition(
            Self.isOutboxSchema(schema),
            "mail outbox schema \"\(schema)\" is not a lowercase identifier of at most 51 characters")
        self.schema = schema
        self.cipher = cipher
    }

    /// The table, schema-qualified.
    var table: String { "\(schema).mail_outbox" }

    /// The NOTIFY channel an enqueue wakes the workers on.
    var channel: String { "\(schema)_mail_outbox" }

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
        let messageID = UUID().uuidString.lowercased()
        let sealed = seal(
            SealedMail(recipient: message.to, subject: message.subject, body: message.body),
            messageID: messageID)
        return """
            WITH mail AS (
                INSERT INTO \(table: self) (kind, mail_sealed, message_id)
                VALUES (\(message.kind), \(sealed)::bytea, \(messageID)::uuid) RETURNING id)
            SELECT pg_notify(\(channel), '') FROM mail
            """
    }

    static func isOutboxSchema(_ schema: String) -> Bool {
        let bytes = schema.utf8
        return (1...51).contains(bytes.count) && !(48...57).contains(bytes.first!)
            && bytes.allSatisfy { (97...122).contains($0) || (48...57).contains($0) || $0 == 95 }
    }
}

extension PostgresQuery.StringInterpolation {
    /// The outbox's table as SQL text; safe because `MailOutbox` admits only plain identifiers.
    mutating func appendInterpolation(table outbox: MailOutbox) {
        appendLiteral(outbox.table)
    }
}
