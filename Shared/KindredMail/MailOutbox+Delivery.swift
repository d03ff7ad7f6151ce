internal import FoundationEssentials
import KindredAuth
import KindredPostgres

/// One outbox row, claimed by a worker for one attempt.
struct ClaimedMail: Sendable {
    let id: Int
    let kind: String
    /// The recipient, subject and body; why they do not open, when they do not (an unknown key, a damaged
    /// value), which fails the attempt as permanent.
    let content: Result<SealedMail, any Error>
    let messageID: String
    let createdAt: Date
    /// Attempts so far, this one included.
    let attempts: Int
}

/// The worker's statements. Times come from the worker's clock, so tests can move it.
extension MailOutbox {
    /// Claims the most overdue unsent message that no other worker holds: one statement, so the claim
    /// commits at once and no transaction stays open during the send. Until `leaseUntil` no worker
    /// claims it again; a worker that dies mid-send leaves it to be retried then.
    func claimNext(now: Date, leaseUntil: Date, on database: PostgresPool) async throws -> ClaimedMail? {
        let rows = try await database.query(
            """
            UPDATE \(table: self) SET attempts = attempts + 1, next_attempt_at = \(leaseUntil)
            WHERE id = (
                SELECT id FROM \(table: self) WHERE sent_at IS NULL AND next_attempt_at <= \(now)
                ORDER BY next_attempt_at, id LIMIT 1 FOR UPDATE SKIP LOCKED)
            RETURNING id, kind, recipient, subject, body, mail_sealed, message_id::text, created_at, attempts
            """)
        return try rows.first.map { row in
            let (id, kind, recipient, subject, body, sealed, messageID, createdAt, attempts) = try row.decode(
                (Int, String, String?, String?, String?, [UInt8]?, String, Date, Int).self)
            let content = Result<SealedMail, any Error> {
                guard
                    let mail = try open(
                        plain: (recipient, subject, body), sealed: sealed, messageID: messageID)
                else { throw FieldCipherError.malformed }
                return mail
            }
            return ClaimedMail(
                id: id, kind: kind, content: content, messageID: messageID, createdAt: createdAt,
                attempts: attempts)
        }
    }

    /// Records a delivery, and drops what was sent: a one-time link stays in the outbox no longer than it
    /// takes to send it.
    func markSent(_ id: Int, at time: Date, on database: PostgresPool) async throws {
        try await database.query(
            """
            UPDATE \(table: self)
            SET sent_at = \(time), mail_sealed = NULL, recipient = NULL, subject = NULL, body = NULL
            WHERE id = \(id)
            """)
    }

    /// Records a failed attempt and when to try again; the message stays.
    func reschedule(_ id: Int, at time: Date, error: String, on database: PostgresPool) async throws {
        try await database.query(
            """
            UPDATE \(table: self) SET next_attempt_at = \(time), last_error = \(error)
            WHERE id = \(id) AND sent_at IS NULL
            """)
    }

    /// When the next unsent message falls due, if any is waiting.
    func nextAttempt(on database: PostgresPool) async throws -> Date? {
        let rows = try await database.query(
            "SELECT min(next_attempt_at) FROM \(table: self) WHERE sent_at IS NULL")
        return try rows.first?.decode(Date?.self, column: 0)
    }

    /// Deletes messages sent before `cutoff`, in batches (`PostgresPool.deleteInBatches`); returns how many.
    /// Unsent messages are never deleted.
    func pruneSent(before cutoff: Date, on database: PostgresPool) async throws -> Int {
        try await database.deleteInBatches(from: table, where: "sent_at < \(cutoff)")
    }
}
