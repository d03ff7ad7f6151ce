/// Where a service's mail goes and whom it comes from: the `--mail` (`KINDRED_MAIL`) and
/// `--mail-from` (`KINDRED_MAIL_FROM`) settings.
public struct MailSettings: Sendable, Equatable {
    /// A transport a setting can name.
    public enum Transport: Sendable, Equatable {
        /// `maildir:DIRECTORY`: files in a maildir, relative to the working directory unless absolute.
        case maildir(directory: String)
        /// `smtp://`, `smtp+starttls://` or `smtps://HOST[:PORT]`: an SMTP server.
        case smtp(SMTPServer)
    }

    /// The transport when none is set: a maildir a developer can read.
    public static let defaultTransport = "maildir:var/mail"
    /// The sender when none is set.
    public static let defaultFrom = "Kindred <no-reply@kindred.local>"

    /// Where mail goes.
    public var transport: Transport
    /// The From header and the envelope sender.
    public var from: MailAddress

    /// Parses the two settings; nil takes the default. SMTP's credentials and CA file come from
    /// `environment` (`KINDRED_MAIL_USERNAME`, `KINDRED_MAIL_PASSWORD_FILE` or `KINDRED_MAIL_PASSWORD`,
    /// `KINDRED_MAIL_CA_FILE`), never from a flag. A bad setting throws a `MailError` whose field is
    /// `mail`, `mail-from` or the variable, and whose reason says what is accepted.
    public init(
        transport: String? = nil, from: String? = nil, environment: [String: String] = [:]
    ) throws(MailError) {
        self.transport = try Self.parseTransport(transport ?? Self.defaultTransport, environment)
        self.from = try MailAddress(parsing: from ?? Self.defaultFrom, field: "mail-from")
    }

    /// The transport the settings name.
    public func makeTransport() -> any MailTransport {
        switch transport {
        case .maildir(let directory): MaildirTransport(directory: directory)
        case .smtp(let server): SMTPTransport(server: server)
        }
    }

    private static func parseTransport(_ text: String, _ environment: [String: String]) throws(MailError)
        -> Transport
    {
        if text.hasPrefix("maildir:") {
            let directory = String(text.dropFirst("maildir:".count))
            guard !directory.isEmpty else {
                throw MailError("mail", "maildir: needs a directory, as in maildir:var/mail")
            }
            return .maildir(directory: directory)
        }
        guard let server = try SMTPServer(parsing: text, environment: environment) else {
            throw MailError(
                "mail",
                "\"\(text)\" is neither maildir:DIRECTORY nor smtp://, smtp+starttls:// or smtps://HOST[:PORT]"
            )
        }
        return .smtp(server)
    }
}
