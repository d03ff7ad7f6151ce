/// The SMTP server `--mail` names, with the TLS it requires and the credentials the environment gives.
public struct SMTPServer: Sendable, Equatable {
    /// How the connection is protected.
    public enum Security: Sendable, Equatable {
        /// `smtp://`: plaintext, for a relay on a trusted network; no credentials are sent.
        case none
        /// `smtp+starttls://`: plaintext until STARTTLS, which the server must offer, else nothing is sent.
        case startTLS
        /// `smtps://`: TLS from the first byte (RFC 8314).
        case implicitTLS
    }

    /// The server's host name or address (an IPv6 address without brackets).
    public var host: String
    /// The server's port: 25, 587 or 465 unless given.
    public var port: Int
    /// Plaintext, STARTTLS or implicit TLS.
    public var security: Security
    /// AUTH's user name and password, if the server wants them.
    public var credentials: SMTPCredentials?
    /// A PEM file of the CA certificates to trust instead of the system's, for a private CA.
    public var caFile: String?

    /// A server at `host:port`.
    public init(
        host: String, port: Int, security: Security = .none, credentials: SMTPCredentials? = nil,
        caFile: String? = nil
    ) {
        self.host = host
        self.port = port
        self.security = security
        self.credentials = credentials
        self.caFile = caFile
    }
}

/// A user name and password for SMTP AUTH; the password never appears in a description or a log.
public struct SMTPCredentials: Sendable, Equatable, CustomStringConvertible, CustomReflectable {
    /// The user name.
    public var username: String
    /// The password.
    public var password: String

    /// Credentials for AUTH.
    public init(username: String, password: String) {
        self.username = username
        self.password = password
    }

    /// The user name only.
    public var description: String { "\(username) (password withheld)" }

    /// What `dump` and string interpolation of a containing value show: the user name only.
    public var customMirror: Mirror { Mirror(self, children: ["username": username]) }
}
