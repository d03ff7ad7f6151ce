import FoundationEssentials

extension SMTPServer {
    /// The URL schemes `--mail` accepts for SMTP, with the security and default port of each.
    static let schemes: [(scheme: String, security: Security, port: Int)] = [
        ("smtp://", .none, 25), ("smtp+starttls://", .startTLS, 587), ("smtps://", .implicitTLS, 465),
    ]

    /// Parses `smtp://`, `smtp+starttls://` or `smtps://HOST[:PORT]`, and takes AUTH's credentials and the
    /// CA file from `environment`; nil when `text` names no SMTP scheme.
    init?(parsing text: String, environment: [String: String]) throws(MailError) {
        guard let (scheme, security, defaultPort) = Self.schemes.first(where: { text.hasPrefix($0.scheme) })
        else { return nil }
        var authority = text.dropFirst(scheme.count)
        if authority.hasSuffix("/") { authority = authority.dropLast() }
        guard !authority.contains("@") else {
            throw MailError(
                "mail",
                "put no credentials in the URL: set KINDRED_MAIL_USERNAME and KINDRED_MAIL_PASSWORD_FILE")
        }
        let (host, port) = try Self.hostAndPort(authority, in: text, scheme: scheme)
        self.init(
            host: host, port: port ?? defaultPort, security: security,
            credentials: try Self.credentials(environment), caFile: environment["KINDRED_MAIL_CA_FILE"])
        guard security != .none || (credentials == nil && caFile == nil) else {
            throw MailError(
                "mail",
                "credentials and a CA file need TLS: use smtp+starttls:// or smtps://, never a password in the clear"
            )
        }
    }

    /// `KINDRED_MAIL_USERNAME` with `KINDRED_MAIL_PASSWORD_FILE` (its first line) or `KINDRED_MAIL_PASSWORD`.
    private static func credentials(_ environment: [String: String]) throws(MailError) -> SMTPCredentials? {
        let file = environment["KINDRED_MAIL_PASSWORD_FILE"]
        let variable = environment["KINDRED_MAIL_PASSWORD"]
        guard let username = environment["KINDRED_MAIL_USERNAME"], !username.isEmpty else {
            guard file == nil, variable == nil else {
                throw MailError("KINDRED_MAIL_USERNAME", "a mail password is set but no user name")
            }
            return nil
        }
        switch (file, variable) {
        case (let path?, nil):
            guard let contents = try? String(contentsOfFile: path, encoding: .utf8),
                let password = contents.split(whereSeparator: \.isNewline).first, !password.isEmpty
            else { throw MailError("KINDRED_MAIL_PASSWORD_FILE", "cannot read a password from \(path)") }
            return SMTPCredentials(username: username, password: String(password))
        case (nil, let password?):
            return SMTPCredentials(username: username, password: password)
        case (nil, nil):
            throw MailError("KINDRED_MAIL_PASSWORD_FILE", "KINDRED_MAIL_USERNAME is set but no password")
        case (_?, _?):
            throw MailError(
                "KINDRED_MAIL_PASSWORD_FILE",
                "set KINDRED_MAIL_PASSWORD_FILE or KINDRED_MAIL_PASSWORD, not both")
        }
    }

    /// `host`, `host:port`, `[v6]` or `[v6]:port`.
    private static func hostAndPort(_ authority: Substring, in text: String, scheme: String) throws(MailError)
        -> (String, Int?)
    {
        let form = "\(scheme)HOST[:PORT]"
        var host = authority
        var port: Substring?
        if authority.hasPrefix("["), let close = authority.firstIndex(of: "]") {
            host = authority[authority.index(after: authority.startIndex)..<close]
            let rest = authority[authority.index(after: close)...]
            if !rest.isEmpty {
                guard rest.hasPrefix(":") else { throw MailError("mail", "\"\(text)\" is not \(form)") }
                port = rest.dropFirst()
            }
        } else if let colon = authority.lastIndex(of: ":") {
            host = authority[..<colon]
            port = authority[authority.index(after: colon)...]
        }
        guard !host.isEmpty, !host.contains(where: { $0 == "/" || $0 == " " || $0 == "?" }) else {
            throw MailError("mail", "\"\(text)\" is not \(form)")
        }
        guard let port else { return (String(host), nil) }
        guard let number = Int(port), (1...65535).contains(number) else {
            throw MailError("mail", "\"\(text)\": the port must be a number from 1 to 65535")
        }
        return (String(host), number)
    }
}
