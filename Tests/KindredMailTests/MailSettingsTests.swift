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
        ("smtp://mail.internal:2525", .smtp(host: "mail.internal", port: 2525)),
        ("smtp://127.0.0.1", .smtp(host: "127.0.0.1", port: 25)),
        ("smtp://[::1]:1025/", .smtp(host: "::1", port: 1025)),
    ])
    func aTransportSettingIsParsed(text: String, transport: MailSettings.Transport) throws {
        #expect(try MailSettings(transport: text).transport == transport)
    }

    @Test(arguments: [
        ("maildir:", "needs a directory"), ("smtps://mail:465", "TLS is not supported"),
        ("smtp://user:secret@mail:25", "authentication is not supported"), ("smtp://mail:0", "port must be"),
        ("smtp://mail:http", "port must be"), ("smtp://", "is not smtp://HOST"), ("/var/mail", "neither"),
        ("smtp://[::1]x", "is not smtp://HOST"),
    ])
    func aBadTransportSettingSaysWhatIsAccepted(text: String, complaint: String) {
        let error = #expect(throws: MailError.self) { try MailSettings(transport: text) }
        #expect(error?.field == "mail")
        #expect(error?.reason.contains(complaint) == true)
    }

    @Test func aBadSenderNamesItsSetting() {
        let error = #expect(throws: MailError.self) { try MailSettings(from: "Kindred <not an address>") }
        #expect(error?.field == "mail-from")
    }
}
