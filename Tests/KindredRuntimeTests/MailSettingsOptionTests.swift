import KindredMail
import Testing

@testable import KindredRuntime

@Suite struct MailSettingsOptionTests {
    let service = ServiceDefinition(
        name: "identity", defaultPort: 50051, migrations: [], makeServices: { _ in [] })
    let database = ["KINDRED_IDENTITY_DATABASE_URL": "postgresql://i@localhost/kindred"]

    func settings(_ arguments: [String], _ environment: [String: String] = [:]) throws -> ServiceSettings {
        try ServiceSettings(
            options: try ServiceOptions.parse(arguments), service: service,
            environment: database.merging(environment) { $1 })
    }

    @Test func withoutSettingsMailGoesToTheLocalMaildir() throws {
        let mail = try settings([]).mail
        #expect(mail.transport == .maildir(directory: "var/mail"))
        #expect(mail.from.address == "no-reply@kindred.local")
    }

    @Test func theEnvironmentNamesTheTransportAndSenderAndFlagsWin() throws {
        let environment = [
            "KINDRED_MAIL": "smtp://relay.internal:2525", "KINDRED_MAIL_FROM": "Kin <kin@example.org>",
        ]
        let fromEnvironment = try settings([], environment).mail
        #expect(fromEnvironment.transport == .smtp(SMTPServer(host: "relay.internal", port: 2525)))
        #expect(fromEnvironment.from.description == "Kin <kin@example.org>")

        let fromFlags = try settings(
            ["--mail", "maildir:/srv/mail", "--mail-from", "ops@example.org"], environment)
        #expect(fromFlags.mail.transport == .maildir(directory: "/srv/mail"))
        #expect(fromFlags.mail.from.address == "ops@example.org")
    }

    @Test(arguments: [
        (["--mail", "smtp://relay:0"], "--mail (KINDRED_MAIL): \"smtp://relay:0\": the port must be"),
        (
            ["--mail-from", "nobody"],
            "--mail-from (KINDRED_MAIL_FROM): \"nobody\" is not a usable email address"
        ),
    ])
    func aBadMailSettingNamesTheFlagAndTheVariable(arguments: [String], complaint: String) {
        let error = #expect(throws: StartupError.self) { try settings(arguments) }
        #expect(error?.description.hasPrefix(complaint) == true)
    }

    @Test func smtpCredentialsComeFromTheEnvironmentOnly() throws {
        let environment = ["KINDRED_MAIL_USERNAME": "kindred", "KINDRED_MAIL_PASSWORD": "s3cret"]
        let mail = try settings(["--mail", "smtp+starttls://relay.internal"], environment).mail
        let credentials = SMTPCredentials(username: "kindred", password: "s3cret")
        #expect(
            mail.transport
                == .smtp(
                    SMTPServer(
                        host: "relay.internal", port: 587, security: .startTLS, credentials: credentials)))

        let error = #expect(throws: StartupError.self) {
            try settings(["--mail", "smtp+starttls://relay"], ["KINDRED_MAIL_USERNAME": "kindred"])
        }
        #expect(error?.description.hasPrefix("KINDRED_MAIL_PASSWORD_FILE: ") == true)
    }
}
