import Foundation
import KindredTestSupport
import Testing

@testable import KindredMail

@Suite struct SMTPTransportTests {
    let from = try! MailAddress("no-reply@kindred.local", displayName: "Kindred")

    func outgoing(
        to recipient: String = "grandma@example.com", subject: String = "Hi", body: String = "Hello"
    )
        throws -> OutgoingMail
    {
        let message = try MailMessage(to: recipient, subject: subject, body: body)
        let bytes = message.rendered(from: from, date: Date(), messageID: "\(UUID())@kindred.local")
        return OutgoingMail(sender: from.address, recipient: recipient, bytes: bytes)
    }

    func transport(_ server: ScriptedSMTPServer, timeout: Duration = .seconds(5)) -> SMTPTransport {
        SMTPTransport(
            server: SMTPServer(host: "127.0.0.1", port: server.port), clientName: "test.kindred.local",
            timeout: timeout)
    }

    @Test func theDialogFollowsRFC5321AndTheMessageIsDotStuffed() async throws {
        let server = try ScriptedSMTPServer()
        defer { server.stop() }
        try await transport(server).deliver(outgoing(body: "line\n.\n.dot first\n"))
        let session = try #require(server.sessions.first)
        #expect(
            session.commands == [
                "EHLO test.kindred.local", "MAIL FROM:<no-reply@kindred.local>",
                "RCPT TO:<grandma@example.com>",
                "DATA", "QUIT",
            ])
        #expect(Array(session.data.suffix(4)) == ["line", "..", "..dot first", "."])
    }

    @Test func aServerThatRefusesEHLOIsGreetedWithHELO() async throws {
        let server = try ScriptedSMTPServer(scripts: [["EHLO": "502 5.5.1 command not implemented"]])
        defer { server.stop() }
        try await transport(server).deliver(outgoing())
        #expect(
            server.sessions.first?.commands.prefix(2) == [
                "EHLO test.kindred.local", "HELO test.kindred.local",
            ])
    }

    @Test(arguments: [
        ("RCPT", "450 4.2.1 mailbox busy", false), ("MAIL", "421 4.3.2 shutting down", false),
        (".", "452 4.3.1 insufficient storage", false), ("RCPT", "550 5.1.1 no such user", true),
        ("greeting", "554 5.3.2 no service", true), (".", "554-5.7.1 rejected\r\n554 5.7.1 as spam", true),
    ])
    func aRefusalIsTemporaryFor4xxAndPermanentFor5xx(verb: String, reply: String, isPermanent: Bool)
        async throws
    {
        let server = try ScriptedSMTPServer(scripts: [[verb: reply]])
        defer { server.stop() }
        let error = await #expect(throws: MailTransportError.self) {
            try await transport(server).deliver(outgoing())
        }
        #expect(error?.isPermanent == isPermanent)
        #expect(error?.description.contains(String(reply.prefix(3))) == true)
    }

    @Test func aSilentServerTimesOut() async throws {
        let server = try ScriptedSMTPServer(scripts: [["greeting": nil]])
        defer { server.stop() }
        let error = await #expect(throws: MailTransportError.self) {
            try await transport(server, timeout: .milliseconds(200)).deliver(outgoing())
        }
        #expect(error?.isPermanent == false)
        #expect(error?.description.contains("timed out") == true)
    }

    @Test func nobodyListeningIsATemporaryFailure() async throws {
        let port = try freePort()
        let error = await #expect(throws: MailTransportError.self) {
            try await SMTPTransport(server: SMTPServer(host: "127.0.0.1", port: port)).deliver(outgoing())
        }
        #expect(error?.isPermanent == false)
        #expect(error?.description.contains("connect") == true)
    }

    @Test(.timeLimit(.minutes(1)))
    func aMessageSentToARealSMTPServerArrivesIntact() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let sink = try await AiosmtpdServer(directory: directory)
        defer { sink.stop() }
        let body = "Hallo Oma,\n\nhier ist das erste Foto von Mia.\n.\n.. zwei Punkte\nTschüss 👋\n"
        try await SMTPTransport(server: SMTPServer(host: "127.0.0.1", port: sink.port))
            .deliver(outgoing(subject: "Ein Foto von Mia 📷 — endlich!", body: body))

        let file = try #require(maildirFiles(sink.mailbox).first)
        let parsed = try await ParsedMail(file: file)
        #expect(parsed.defects.isEmpty)
        #expect(parsed.subject == "Ein Foto von Mia 📷 — endlich!")
        #expect(parsed.body == body)
        #expect(parsed.from == "Kindred <no-reply@kindred.local>")
        #expect(parsed.to == "grandma@example.com")
        #expect(parsed.envelopeFrom == "no-reply@kindred.local")
        #expect(parsed.envelopeTo == "grandma@example.com")
    }
}

extension MailDatabaseTests {
    @Suite struct SMTPDelivery {
        @Test func theWorkerRetriesThroughSMTPRefusalsUntilTheServerAccepts() async throws {
            let server = try ScriptedSMTPServer(scripts: [
                ["RCPT": "450 4.2.1 mailbox busy, try later"], ["MAIL": "554 5.7.1 sender rejected"], [:],
            ])
            defer { server.stop() }
            try await withOutbox { pool, outbox in
                let clock = ManualClock()
                let worker = MailDeliveryWorker(
                    outbox: outbox, database: pool,
                    transport: SMTPTransport(
                        server: SMTPServer(host: "127.0.0.1", port: server.port), timeout: .seconds(5)),
                    from: kindredSender, policy: MailDeliveryPolicy(firstRetryDelay: .seconds(30)),
                    logger: quietLogger, now: { clock.now() })
                let message = try MailMessage(to: "user@example.com", subject: "Willkommen", body: "Hallo")
                try await outbox.enqueue(message, on: pool)

                #expect(try await worker.deliverDue() == 0)
                clock.advance(by: .seconds(30))
                #expect(try await worker.deliverDue() == 0)
                clock.advance(by: .seconds(60))
                #expect(try await worker.deliverDue() == 1)

                let sessions = server.sessions
                #expect(sessions.count == 3)
                #expect(sessions[0].commands.contains("RCPT TO:<user@example.com>"))
                #expect(!sessions[0].commands.contains("DATA"))
                #expect(sessions[2].data.contains("Subject: Willkommen"))
                let row = try #require(try await outboxRows(pool, outbox).first)
                #expect(row.isSent)
                #expect(row.attempts == 3)
                #expect(row.lastError?.contains("554") == true)
            }
        }
    }
}
