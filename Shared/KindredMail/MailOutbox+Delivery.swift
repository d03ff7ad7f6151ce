internal import FoundationEssentials
import KindredPostgres

/// One outbox row, claimed by a worker for one attempt.
struct ClaimedMail: Sendable {
    let id: Int
    let kind: String
    let recipient: String
    let subject: String
    let body: String
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
            RETURNING id, kind, recipient, subject, body, message_id::text, created_at, attempts
            """)
        return try rows.first.map { row in
            let (id, kind, recipient, subject, body, messageID, createdAt, attempts) = try row.decode(
                (Int, String, String, String, String, String, Date, Int).self)
            return ClaimedMail(
                id: id, kind: kind, recipient: recipient, subject: subject, body: body, messageID: messageID,
                createdAt: createdAt, attempts: attempts)
        }
    }

    /// Records a delivery.
    func markSent(_ id: Int, at time: Date, on database: PostgresPool) async throws {
        try await database.query("UPDATE \(table: self) SET sent_at = \(time) WHERE id = \(id)")
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

    /// Deletes messages sent before `cutoff`; returns how many. Unsent messages are never deleted.
    func pruneSent(before cutoff: Date, on database: PostgresPool) async throws -> Int {
        try await database.query("DELETE FROM \(table: self) WHERE sent_at < \(cutoff)").affectedRows
    }
}
