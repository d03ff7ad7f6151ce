import Foundation
import KindredAuth
import KindredPostgres
import KindredTestSupport
import Testing

@testable import KindredMail

/// Every column of the outbox's rows as text (a bytea as hex), as a stolen dump would show them.
func outboxText(_ pool: PostgresPool, _ outbox: MailOutbox) async throws -> String {
    try await pool.query(
        PostgresQuery(
            unsafeSQL: "SELECT coalesce(string_agg(t::text, ' '), '') FROM \(outbox.schema).mail_outbox t")
    )[0].decode(String.self)
}

extension MailDatabaseTests {
    /// What the outbox keeps of a mail: sealed until sent, nothing once sent.
    @Suite struct OutboxSealing {
        static let link = "https://kindred.test/reset?token=Q29ycmVjdEhvcnNlQmF0dGVyeVN0YXBsZQ"

        func worker(_ outbox: MailOutbox, _ pool: PostgresPool, _ transport: any MailTransport)
            -> MailDeliveryWorker
        {
            MailDeliveryWorker(
                outbox: outbox, database: pool, transport: transport, from: kindredSender,
                policy: MailDeliveryPolicy(), logger: quietLogger, now: { Date() })
        }

        @Test func aQueuedMailShowsNoAddressSubjectOrLinkAndASentOneKeepsNothing() async throws {
            try await withOutbox { pool, outbox in
                try await outbox.enqueue(
                    MailMessage(
                        to: "marker.guardian@example.com", subject: "Reset the PIN of Wilhelmina",
                        body: "Open \(Self.link)\n", kind: "pin_reset"), on: pool)
                let queued = try await outboxText(pool, outbox)
                for marker in ["marker.guardian", "Wilhelmina", "Q29ycmVjdEhvcnNl"] {
                    #expect(!queued.contains(marker))
                    #expect(!queued.contains(Array(marker.utf8).map { String(format: "%02x", $0) }.joined()))
                }
                #expect(queued.contains("pin_reset"))

                let transport = ScriptedTransport()
                #expect(try await worker(outbox, pool, transport).deliverDue() == 1)
                #expect(transport.delivered.map(\.recipient) == ["marker.guardian@example.com"])
                #expect(
                    String(decoding: transport.delivered[0].bytes, as: UTF8.self).contains("Q29ycmVjdEhvcnNl")
                )
                let sent = try await pool.query(
                    PostgresQuery(
                        unsafeSQL: """
                            SELECT count(*)::int FROM \(outbox.schema).mail_outbox
                            WHERE sent_at IS NOT NULL AND mail_sealed IS NULL AND recipient IS NULL
                              AND subject IS NULL AND body IS NULL
                            """))[0].decode(Int.self)
                #expect(sent == 1)
            }
        }

        @Test func aPlaintextMailFromBeforeSealingIsSentAndRotationSealsTheUnsentOnes() async throws {
            try await withOutbox { pool, outbox in
                try await pool.query(
                    PostgresQuery(
                        unsafeSQL: """
                            INSERT INTO \(outbox.schema).mail_outbox (kind, recipient, subject, body)
                            VALUES ('mail', 'old@example.com', 'Before', 'plain'),
                                   ('mail', 'older@example.com', 'Before', 'plain')
                            """))
                let underOldKey = MailOutbox(schema: outbox.schema, cipher: TestDataKeys.old)
                try await underOldKey.enqueue(
                    MailMessage(to: "rotated@example.com", subject: "Old key", body: "b"), on: pool)

                let first = try await outbox.resealBatch(after: nil, limit: 2, on: pool)
                #expect(first.resealed == 2)
                let second = try await outbox.resealBatch(after: first.next, limit: 2, on: pool)
                #expect(second.resealed == 1)
                #expect(second.next == nil)
                #expect(try await outbox.resealBatch(after: nil, limit: 10, on: pool).resealed == 0)
                #expect(!(try await outboxText(pool, outbox)).contains("old@example.com"))
                let sealed = try await pool.query(
                    PostgresQuery(
                        unsafeSQL: "SELECT mail_sealed FROM \(outbox.schema).mail_outbox ORDER BY id")
                ).decode([UInt8]?.self)
                #expect(sealed.allSatisfy { outbox.cipher.isCurrent($0) })

                let transport = ScriptedTransport()
                #expect(try await worker(outbox, pool, transport).deliverDue() == 3)
                #expect(
                    transport.delivered.map(\.recipient)
                        == ["old@example.com", "older@example.com", "rotated@example.com"])
            }
        }

        @Test func aMailSealedUnderAKeyTheKeyringLacksStaysWithItsError() async throws {
            try await withOutbox { pool, outbox in
                let stranger = try FieldCipher(
                    keyring: try DataKeyring("other:" + Base64.encode([UInt8](repeating: 5, count: 32))))
                try await MailOutbox(schema: outbox.schema, cipher: stranger).enqueue(
                    MailMessage(to: "lost@example.com", subject: "S", body: "B"), on: pool)
                let transport = ScriptedTransport()
                #expect(try await worker(outbox, pool, transport).deliverDue() == 0)
                #expect(transport.calls.isEmpty)
                let row = try #require(
                    try await pool.query(
                        PostgresQuery(unsafeSQL: "SELECT last_error FROM \(outbox.schema).mail_outbox")
                    ).first)
                #expect(try row.decode(String?.self, column: 0)?.contains("does not open") == true)
            }
        }
    }
}
