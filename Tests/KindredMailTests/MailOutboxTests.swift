import Foundation
import KindredPostgres
import KindredTestSupport
import Testing

@testable import KindredMail

/// The outbox's state as the tests read it.
struct OutboxRow {
    /// The recipient, opened; nil once sent, when the outbox keeps no address.
    let recipient: String?
    let attempts: Int
    let lastError: String?
    let isSent: Bool
}

func outboxRows(_ pool: PostgresPool, _ outbox: MailOutbox) async throws -> [OutboxRow] {
    let rows = try await pool.query(
        PostgresQuery(
            unsafeSQL: """
                SELECT recipient, subject, body, mail_sealed, message_id::text, attempts, last_error,
                    sent_at IS NOT NULL
                FROM \(outbox.schema).mail_outbox ORDER BY id
                """))
    return try rows.decode((String?, String?, String?, [UInt8]?, String, Int, String?, Bool).self).map {
        OutboxRow(
            recipient: try outbox.open(plain: ($0, $1, $2), sealed: $3, messageID: $4)?.recipient,
            attempts: $5,
            lastError: $6, isSent: $7)
    }
}

/// Thrown to roll a transaction back.
struct Abandoned: Error {}

let kindredSender = try! MailAddress("no-reply@kindred.local", displayName: "Kindred")

extension MailDatabaseTests {
    @Suite struct Outbox {
        func worker(
            _ outbox: MailOutbox, _ pool: PostgresPool, _ transport: any MailTransport, clock: ManualClock,
            policy: MailDeliveryPolicy = MailDeliveryPolicy()
        ) -> MailDeliveryWorker {
            MailDeliveryWorker(
                outbox: outbox, database: pool, transport: transport, from: kindredSender, policy: policy,
                logger: quietLogger, now: { clock.now() })
        }

        @Test func aMailEnqueuedInATransactionThatRollsBackIsNeverSent() async throws {
            try await withOutbox { (pool: PostgresPool, outbox: MailOutbox) async throws in
                await #expect(throws: Abandoned.self) {
                    try await pool.transaction { tx in
                        let message = try MailMessage(to: "user@example.com", subject: "Welcome", body: "Hi")
                        try await outbox.enqueue(message, in: tx)
                        throw Abandoned()
                    }
                }
                let transport = ScriptedTransport()
                #expect(try await worker(outbox, pool, transport, clock: ManualClock()).deliverDue() == 0)
                #expect(transport.calls.isEmpty)
                #expect(try await outboxRows(pool, outbox).isEmpty)
            }
        }

        @Test func aMailFromACommittedTransactionIsDeliveredToTheMaildirAndParsesAsTheMessage() async throws {
            let maildir = try temporaryDirectory()
            defer { try? FileManager.default.removeItem(atPath: maildir) }
            try await withOutbox { pool, outbox in
                let body =
                    "Hallo Jürgen,\n\nbestätige deine Adresse: https://kindred.local/verify?token=t0k3n\n"
                try await pool.transaction { tx in
                    try await tx.query("SELECT 1")
                    let message = try MailMessage(
                        to: "juergen@example.com", subject: "Bestätige deine E-Mail-Adresse ✉️", body: body,
                        kind: "verify_email")
                    try await outbox.enqueue(message, in: tx)
                }
                let enqueuedAt = Date()
                let delivery = worker(
                    outbox, pool, MaildirTransport(directory: maildir), clock: ManualClock())
                #expect(try await delivery.deliverDue() == 1)

                let file = try #require(maildirFiles(maildir).first)
                let parsed = try await ParsedMail(file: file)
                #expect(parsed.defects.isEmpty)
                #expect(parsed.to == "juergen@example.com")
                #expect(parsed.from == "Kindred <no-reply@kindred.local>")
                #expect(parsed.subject == "Bestätige deine E-Mail-Adresse ✉️")
                #expect(parsed.body == body)
                #expect(parsed.messageID.hasSuffix("@kindred.local>"))
                #expect(abs(parsed.dateEpoch - enqueuedAt.timeIntervalSince1970) < 60)
                #expect(try await outboxRows(pool, outbox).map(\.isSent) == [true])
                #expect(try await delivery.deliverDue() == 0)
            }
        }

        @Test func aStandaloneEnqueueIsDeliveredToo() async throws {
            try await withOutbox { pool, outbox in
                try await outbox.enqueue(
                    MailMessage(to: "a@example.com", subject: "One", body: "1"), on: pool)
                let transport = ScriptedTransport()
                #expect(try await worker(outbox, pool, transport, clock: ManualClock()).deliverDue() == 1)
                #expect(transport.delivered.map(\.recipient) == ["a@example.com"])
                #expect(transport.delivered.first?.sender == "no-reply@kindred.local")
            }
        }

        @Test func sentMailIsPrunedAfterTheRetentionButUnsentMailIsKept() async throws {
            try await withOutbox { pool, outbox in
                let clock = ManualClock()
                try await outbox.enqueue(
                    MailMessage(to: "sent@example.com", subject: "a", body: "a"), on: pool)
                let policy = MailDeliveryPolicy(retention: .seconds(86_400))
                try await worker(outbox, pool, ScriptedTransport(), clock: clock, policy: policy).deliverDue()
                try await outbox.enqueue(
                    MailMessage(to: "unsent@example.com", subject: "b", body: "b"), on: pool)
                let failing = ScriptedTransport(failures: [.temporary("down")])
                try await worker(outbox, pool, failing, clock: clock, policy: policy).deliverDue()

                let pruner = worker(outbox, pool, ScriptedTransport(), clock: clock, policy: policy)
                clock.advance(by: .seconds(86_399))
                try await pruner.pruneIfDue()
                #expect(try await outboxRows(pool, outbox).count == 2)
                clock.advance(by: .seconds(3_600))
                try await pruner.pruneIfDue()
                #expect(try await outboxRows(pool, outbox).map(\.recipient) == ["unsent@example.com"])
            }
        }

        @Test func aStoredRowThatNoLongerPassesTheChecksStaysWithItsError() async throws {
            try await withOutbox { pool, outbox in
                try await pool.query(
                    PostgresQuery(
                        unsafeSQL: """
                            INSERT INTO \(outbox.schema).mail_outbox (kind, recipient, subject, body)
                            VALUES ('mail', 'user@example.com', E'Hi\\r\\nBcc: all@example.com', 'x')
                            """))
                let transport = ScriptedTransport()
                #expect(try await worker(outbox, pool, transport, clock: ManualClock()).deliverDue() == 0)
                #expect(transport.calls.isEmpty)
                let row = try #require(try await outboxRows(pool, outbox).first)
                #expect(!row.isSent)
                #expect(row.attempts == 1)
                #expect(row.lastError?.contains("stored message is invalid") == true)
            }
        }
    }
}
