import Foundation
import KindredTestSupport
import Testing

@testable import KindredMail

@Suite struct MailSettingsTests {
    @Test func theDefaultsAreTheLocalMaildirAndKindredsNoReplyAddress() throws {
        let settings = try MailSettings()
        #expect(settings.transport == .maildir(directory: "var/mail"))
        #expect(settings.from == (try MailAddress("no-reply@kindred.local", displayName: "Kindred")))
        #expect(settings.makeTransport() is MaildirTransport)
    }

    @Test(arguments: [
        ("maildir:/srv/mail", MailSettings.Transport.maildir(directory: "/srv/mail")),
        ("smtp://mail.internal:2525", .smtp(SMTPServer(host: "mail.internal", port: 2525))),
        ("smtp://127.0.0.1", .smtp(SMTPServer(host: "127.0.0.1", port: 25))),
        ("smtp://[::1]:1025/", .smtp(SMTPServer(host: "::1", port: 1025))),
        (
            "smtp+starttls://mail.example.com",
            .smtp(SMTPServer(host: "mail.example.com", port: 587, security: .startTLS))
        ),
        ("smtps://[::1]", .smtp(SMTPServer(host: "::1", port: 465, security: .implicitTLS))),
    ])
    func aTransportSettingIsParsed(text: String, transport: MailSettings.Transport) throws {
        #expect(try MailSettings(transport: text).transport == transport)
    }

    @Test(arguments: [
        ("maildir:", "needs a directory"), ("smtp://user:secret@mail:25", "no credentials in the URL"),
        ("smtp://mail:0", "port must be"), ("smtp://mail:http", "port must be"),
        ("smtp://", "is not smtp://HOST"),
        ("/var/mail", "neither"), ("smtp://[::1]x", "is not smtp://HOST"),
        ("smtps://", "is not smtps://HOST"),
    ])
    func aBadTransportSettingSaysWhatIsAccepted(text: String, complaint: String) {
        let error = #expect(throws: MailError.self) { try MailSettings(transport: text) }
        #expect(error?.field == "mail")
        #expect(error?.reason.contains(complaint) == true)
    }

    @Test func aPasswordFileAndACAFileComeFromTheEnvironmentAndThePasswordIsNeverShown() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try "hunter2-long-secret\n".write(toFile: directory + "/password", atomically: true, encoding: .utf8)
        let environment = [
            "KINDRED_MAIL_USERNAME": "kindred", "KINDRED_MAIL_PASSWORD_FILE": directory + "/password",
            "KINDRED_MAIL_CA_FILE": "/etc/kindred/mail-ca.pem",
        ]
        let settings = try MailSettings(transport: "smtps://mail.example.com", environment: environment)
        guard case .smtp(let server) = settings.transport else { throw TestFailure("not SMTP: \(settings)") }
        #expect(server.credentials == SMTPCredentials(username: "kindred", password: "hunter2-long-secret"))
        #expect(server.caFile == "/etc/kindred/mail-ca.pem")
        #expect(!"\(settings)".contains("hunter2"))
        #expect(!String(reflecting: settings).contains("hunter2"))
    }

    @Test(arguments: [
        (
            ["KINDRED_MAIL_USERNAME": "kindred", "KINDRED_MAIL_PASSWORD": "pw"], "smtp://mail", "mail",
            "need TLS"
        ),
        (["KINDRED_MAIL_CA_FILE": "/ca.pem"], "smtp://mail", "mail", "need TLS"),
        (["KINDRED_MAIL_PASSWORD": "pw"], "smtps://mail", "KINDRED_MAIL_USERNAME", "no user name"),
        (["KINDRED_MAIL_USERNAME": "kindred"], "smtps://mail", "KINDRED_MAIL_PASSWORD_FILE", "no password"),
        (
            ["KINDRED_MAIL_USERNAME": "kindred", "KINDRED_MAIL_PASSWORD_FILE": "/nonexistent"],
            "smtps://mail",
            "KINDRED_MAIL_PASSWORD_FILE", "cannot read"
        ),
    ])
    func credentialsWithoutTLSOrHalfSetAreRefused(
        environment: [String: String], url: String, field: String, complaint: String
    ) {
        let error = #expect(throws: MailError.self) {
            try MailSettings(transport: url, environment: environment)
        }
        #expect(error?.field == field)
        #expect(error?.reason.contains(complaint) == true)
    }

    @Test func aBadSenderNamesItsSetting() {
        let error = #expect(throws: MailError.self) { try MailSettings(from: "Kindred <not an address>") }
        #expect(error?.field == "mail-from")
    }
}
