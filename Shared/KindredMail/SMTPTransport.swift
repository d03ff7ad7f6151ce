/// Hands each message to an SMTP server (RFC 5321), one connection per message, without TLS or
/// authentication: a local relay or a test sink. Replies 4xx are temporary failures, 5xx permanent ones.
public struct SMTPTransport: MailTransport {
    /// The server's host name or address.
    public var host: String
    /// The server's port.
    public var port: Int
    /// The name this client gives in EHLO/HELO.
    public var clientName: String
    /// How long connecting may take.
    public var connectTimeout: Duration
    /// How long each reply may take (the whole message, for the reply after DATA).
    public var commandTimeout: Duration

    /// A transport to `host:port`; `clientName` defaults to this machine's host name.
    public init(
        host: String, port: Int = 25, clientName: String? = nil,
        connectTimeout: Duration = .seconds(10), commandTimeout: Duration = .seconds(30)
    ) {
        self.host = host
        self.port = port
        self.clientName = clientName ?? LocalHost.name
        self.connectTimeout = connectTimeout
        self.commandTimeout = commandTimeout
    }

    /// Runs one SMTP dialog for `mail` on a thread of its own.
    public func deliver(_ mail: OutgoingMail) async throws(MailTransportError) {
        let transport = self
        try await BlockingThread.run { () throws(MailTransportError) in try transport.converse(mail) }
    }

    /// Greeting, EHLO (HELO when the server refuses it), MAIL FROM, RCPT TO, DATA, the message, QUIT.
    /// The message is delivered once the server accepts it after DATA; QUIT's fate no longer matters.
    func converse(_ mail: OutgoingMail) throws(MailTransportError) {
        let connection = try SMTPConnection(
            host: host, port: port, connectTimeout: connectTimeout, timeout: commandTimeout)
        do {
            try expect(connection.readReply(), [220], "the greeting")
            var hello = try connection.command("EHLO \(clientName)")
            if hello.code / 100 == 5 { hello = try connection.command("HELO \(clientName)") }
            try expect(hello, [250], "HELO")
            try expect(connection.command("MAIL FROM:<\(mail.sender)>"), [250], "MAIL FROM")
            try expect(connection.command("RCPT TO:<\(mail.recipient)>"), [250, 251], "RCPT TO")
            try expect(connection.command("DATA"), [354], "DATA")
            try connection.send(SMTPData.stuffed(mail.bytes))
            try expect(connection.readReply(), [250], "the message")
        } catch {
            if !connection.isBroken { _ = try? connection.command("QUIT") }
            throw error
        }
        _ = try? connection.command("QUIT")
    }

    private func expect(_ reply: SMTPReply, _ codes: [Int], _ step: String) throws(MailTransportError) {
        guard !codes.contains(reply.code) else { return }
        let what = "SMTP \(host):\(port) answered \(step) with \(reply.code) \(reply.text)"
        throw reply.code / 100 == 5 ? .permanent(what) : .temporary(what)
    }
}
