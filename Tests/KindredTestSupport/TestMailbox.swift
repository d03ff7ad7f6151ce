public import KindredPostgres
public import Testing

/// What a service's mail outbox (`<schema>.mail_outbox`) holds, read as the delivery worker would.
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

    /// Every queued message, oldest first.
    public func all() async throws -> [Mail] {
        // The schema is the test's own constant, never input.
        let rows = try await pool.query(
            PostgresQuery(
                unsafeSQL: "SELECT kind, recipient, subject, body FROM \(schema).mail_outbox ORDER BY id"))
        return try rows.map { row in
            let (kind, to, subject, body) = try row.decode((String, String, String, String).self)
            return Mail(kind: kind, to: to, subject: subject, body: body)
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
