/// Hands each message to an SMTP server (RFC 5321) through libcurl, one connection per message:
/// plaintext to a relay on a trusted network, STARTTLS that the server must offer, or implicit TLS, with
/// AUTH when credentials are set. A 4xx reply is a temporary failure; a 5xx reply, refused credentials, a
/// server without STARTTLS and a certificate that does not verify are permanent ones.
public struct SMTPTransport: MailTransport {
    /// Where to connect, with what protection and credentials.
    public var server: SMTPServer
    /// The name this client gives in EHLO/HELO.
    public var clientName: String
    /// How long connecting (and the TLS handshake) may take.
    public var connectTimeout: Duration
    /// How long the whole dialog may take, from connecting to the reply after the message.
    public var timeout: Duration

    /// A transport to `server`; `clientName` defaults to this machine's host name.
    public init(
        server: SMTPServer, clientName: String? = nil, connectTimeout: Duration = .seconds(10),
        timeout: Duration = .seconds(60)
    ) {
        self.server = server
        self.clientName = clientName ?? LocalHost.name
        self.connectTimeout = connectTimeout
        self.timeout = timeout
    }

    /// Runs one SMTP dialog for `mail` on a thread of its own: libcurl's easy interface blocks.
    public func deliver(_ mail: OutgoingMail) async throws(MailTransportError) {
        let transport = self
        try await BlockingThread.run { () throws(MailTransportError) in
            try CurlSMTPSession(transport).send(mail)
        }
    }

    /// What libcurl connects to; the path is the name EHLO gives.
    var url: String {
        let scheme = server.security == .implicitTLS ? "smtps" : "smtp"
        let host = server.host.contains(":") ? "[\(server.host)]" : server.host
        return "\(scheme)://\(host):\(server.port)/\(clientName)"
    }
}
