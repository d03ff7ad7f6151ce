/// Where a service's mail goes and whom it comes from: the `--mail` (`KINDRED_MAIL`) and
/// `--mail-from` (`KINDRED_MAIL_FROM`) settings.
public struct MailSettings: Sendable, Equatable {
    /// A transport a setting can name.
    public enum Transport: Sendable, Equatable {
        /// `maildir:DIRECTORY`: files in a maildir, relative to the working directory unless absolute.
        case maildir(directory: String)
        /// `smtp://HOST[:PORT]`: an SMTP server, port 25 unless given; no TLS, no authentication.
        case smtp(host: String, port: Int)
    }

    /// The transport when none is set: a maildir a developer can read.
    public static let defaultTransport = "maildir:var/mail"
    /// The sender when none is set.
    public static let defaultFrom = "Kindred <no-reply@kindred.local>"

    /// Where mail goes.
    public var transport: Transport
    /// The From header and the envelope sender.
    public var from: MailAddress

    /// Parses the two settings; nil takes the default. A bad one throws a `MailError` whose field is
    /// `mail` or `mail-from` and whose reason says what is accepted.
    public init(transport: String? = nil, from: String? = nil) throws(MailError) {
        self.transport = try Self.parseTransport(transport ?? Self.defaultTransport)
        self.from = try MailAddress(parsing: from ?? Self.defaultFrom, field: "mail-from")
    }

    /// The transport the settings name.
    public func makeTransport() -> any MailTransport {
        switch transport {
        case .maildir(let directory): MaildirTransport(directory: directory)
        case .smtp(let host, let port): SMTPTransport(host: host, port: port)
        }
    }

    private static func parseTransport(_ text: String) throws(MailError) -> Transport {
        if text.hasPrefix("maildir:") {
            let directory = String(text.dropFirst("maildir:".count))
            guard !directory.isEmpty else {
                throw MailError("mail", "maildir: needs a directory, as in maildir:var/mail")
            }
            return .maildir(directory: directory)
        }
        if text.hasPrefix("smtps://") {
            throw MailError(
                "mail", "SMTP over TLS is not supported yet: use smtp:// to a relay on a trusted network")
        }
        guard text.hasPrefix("smtp://") else {
            throw MailError("mail", "\"\(text)\" is neither maildir:DIRECTORY nor smtp://HOST[:PORT]")
        }
        var authority = text.dropFirst("smtp://".count)
        if authority.hasSuffix("/") { authority = authority.dropLast() }
        guard !authority.contains("@") else {
            throw MailError("mail", "SMTP authentication is not supported yet")
        }
        return try parseHostAndPort(authority, in: text)
    }

    /// `host`, `host:port`, `[v6]` or `[v6]:port`.
    private static func parseHostAndPort(_ authority: Substring, in text: String) throws(MailError)
        -> Transport
    {
        var host = authority
        var port: Substring?
        if authority.hasPrefix("["), let close = authority.firstIndex(of: "]") {
            host = authority[authority.index(after: authority.startIndex)..<close]
            let rest = authority[authority.index(after: close)...]
            if !rest.isEmpty {
                guard rest.hasPrefix(":") else {
                    throw MailError("mail", "\"\(text)\" is not smtp://HOST[:PORT]")
                }
                port = rest.dropFirst()
            }
        } else if let colon = authority.lastIndex(of: ":") {
            host = authority[..<colon]
            port = authority[authority.index(after: colon)...]
        }
        guard !host.isEmpty, !host.contains(where: { $0 == "/" || $0 == " " || $0 == "?" }) else {
            throw MailError("mail", "\"\(text)\" is not smtp://HOST[:PORT]")
        }
        guard let port else { return .smtp(host: String(host), port: 25) }
        guard let number = Int(port), (1...65535).contains(number) else {
            throw MailError("mail", "\"\(text)\": the port must be a number from 1 to 65535")
        }
        return .smtp(host: String(host), port: number)
    }
}
