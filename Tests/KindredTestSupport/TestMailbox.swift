import KindredMail
public import KindredPostgres
public import Testing

/// What a service's mail outbox (`<schema>.mail_outbox`) holds unsent, read as the delivery worker would.
public struct TestMailbox {
    let pool: PostgresPool
    let schema: String

    /// The outbox of `schema`: identity's unless a test says otherwise.
    public init(_ pool: PostgresPool, schema: String = "identity") {
        self.pool = pool
        self.schema = schema
    }

    public struct Mail: Sendable {
        public let kind: String
        public let to: String
        public let subject: String
        public let body: String

        /// The lines of the body that are only a token: 43 base64url characters, alone on their line.
        public var tokenLines: [String] {
            body.split(separator: "\n").map(String.init).filter {
                $0.utf8.count == 43
                    && $0.utf8.allSatisfy { byte in
                        (48...57).contains(byte) || (65...90).contains(byte) || (97...122).contains(byte)
                            || byte == 45
                            || byte == 95
                    }
            }
        }
    }

    /// Every queued message, oldest first, opened with the tests' data keys.
    public func all() async throws -> [Mail] {
        let outbox = MailOutbox(schema: schema, cipher: TestDataKeys.cipher)
        // The schema is the test's own constant, never input.
        let rows = try await pool.query(
            PostgresQuery(
                unsafeSQL: """
                    SELECT kind, recipient, subject, body, mail_sealed, message_id::text FROM \(schema).mail_outbox
                    WHERE sent_at IS NULL ORDER BY id
                    """))
        return try rows.compactMap { row in
            let (kind, to, subject, body, sealed, messageID) = try row.decode(
                (String, String?, String?, String?, [UInt8]?, String).self)
            return try outbox.open(plain: (to, subject, body), sealed: sealed, messageID: messageID).map {
                Mail(kind: kind, to: $0.recipient, subject: $0.subject, body: $0.body)
            }
        }
    }

    /// The messages to `address`, oldest first.
    public func mail(to address: String) async throws -> [Mail] {
        try await all().filter { $0.to == address }
    }

    /// The token of the newest message to `address`.
    public func token(to address: String, sourceLocation: SourceLocation = #_sourceLocation) async throws
        -> String
    {
        let newest = try #require(try await mail(to: address).last, sourceLocation: sourceLocation)
        return try #require(newest.tokenLines.first, sourceLocation: sourceLocation)
    }
}
