import KindredPostgres
import Testing

/// What the identity schema's mail outbox holds, read as the delivery worker would.
struct TestMailbox {
    let pool: PostgresPool

    init(_ pool: PostgresPool) {
        self.pool = pool
    }

    struct Mail {
        let kind: String
        let to: String
        let subject: String
        let body: String

        /// The lines of the body that are only a token: 43 base64url characters, alone on their line.
        var tokenLines: [String] {
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
    func all() async throws -> [Mail] {
        let rows = try await pool.query(
            "SELECT kind, recipient, subject, body FROM identity.mail_outbox ORDER BY id")
        return try rows.map { row in
            let (kind, to, subject, body) = try row.decode((String, String, String, String).self)
            return Mail(kind: kind, to: to, subject: subject, body: body)
        }
    }

    /// The messages to `address`, oldest first.
    func mail(to address: String) async throws -> [Mail] {
        try await all().filter { $0.to == address }
    }

    /// The token of the newest message to `address`.
    func token(to address: String, sourceLocation: SourceLocation = #_sourceLocation) async throws -> String {
        let newest = try #require(try await mail(to: address).last, sourceLocation: sourceLocation)
        return try #require(newest.tokenLines.first, sourceLocation: sourceLocation)
    }
}
