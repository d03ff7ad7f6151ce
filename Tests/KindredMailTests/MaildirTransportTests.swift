import Foundation
import KindredTestSupport
import Testing

@testable import KindredMail

@Suite struct MaildirTransportTests {
    let from = try! MailAddress("no-reply@kindred.local", displayName: "Kindred")

    func outgoing(subject: String, body: String) throws -> OutgoingMail {
        let message = try MailMessage(to: "parent@example.com", subject: subject, body: body)
        let bytes = message.rendered(from: from, date: Date(), messageID: "\(UUID())@kindred.local")
        return OutgoingMail(sender: from.address, recipient: message.to, bytes: bytes)
    }

    @Test func missingDirectoriesAreCreatedAndEachMessageIsItsOwnFileInNew() async throws {
        let root = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let maildir = root + "/var/mail"
        let transport = MaildirTransport(directory: maildir)
        try await transport.deliver(outgoing(subject: "First", body: "one"))
        try await transport.deliver(outgoing(subject: "Second", body: "two"))

        let files = maildirFiles(maildir)
        #expect(files.count == 2)
        #expect(try FileManager.default.contentsOfDirectory(atPath: maildir + "/tmp").isEmpty)
        #expect(FileManager.default.fileExists(atPath: maildir + "/cur"))
        var subjects: [String] = []
        for file in files { subjects.append(try await ParsedMail(file: file).subject) }
        #expect(Set(subjects) == ["First", "Second"])
    }

    @Test func theFileIsTheMessageWithLocalLineEndings() async throws {
        let maildir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: maildir) }
        let body = "Hallo Jürgen,\n\nbitte bestätige deine Adresse: https://kindred.local/verify?token=abc=\n"
        try await MaildirTransport(directory: maildir).deliver(
            outgoing(subject: "Bestätige deine Adresse", body: body))

        let file = try #require(maildirFiles(maildir).first)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: file))
        #expect(!bytes.contains(13))
        let parsed = try await ParsedMail(file: file)
        #expect(parsed.defects.isEmpty)
        #expect(parsed.subject == "Bestätige deine Adresse")
        #expect(parsed.body == body)
        #expect(parsed.to == "parent@example.com")
        #expect(parsed.from == "Kindred <no-reply@kindred.local>")
        #expect(parsed.contentType == "text/plain")
        #expect(parsed.charset == "utf-8")
    }

    @Test func aMaildirThatCannotBeCreatedIsATemporaryFailure() async throws {
        let root = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: root) }
        #expect(FileManager.default.createFile(atPath: root + "/file", contents: Data()))
        let error = await #expect(throws: MailTransportError.self) {
            try await MaildirTransport(directory: root + "/file/mail").deliver(
                outgoing(subject: "x", body: "y"))
        }
        #expect(error?.isPermanent == false)
        #expect(error?.description.contains("cannot create directory") == true)
    }
}
