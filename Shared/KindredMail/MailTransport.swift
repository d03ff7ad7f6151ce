/// Where the delivery worker hands a message: a maildir, an SMTP server, or a test double.
public protocol MailTransport: Sendable {
    /// Delivers one message; returns only once the message is stored or accepted by the next hop.
    func deliver(_ mail: OutgoingMail) async throws(MailTransportError)
}

/// One rendered message with its envelope.
public struct OutgoingMail: Sendable, Equatable {
    /// The envelope sender (SMTP `MAIL FROM`), a bare address.
    public let sender: String
    /// The envelope recipient (SMTP `RCPT TO`), a bare address.
    public let recipient: String
    /// The whole RFC 5322 message, ASCII, every line ending in CRLF.
    public let bytes: [UInt8]

    /// Wraps an already rendered message.
    public init(sender: String, recipient: String, bytes: [UInt8]) {
        self.sender = sender
        self.recipient = recipient
        self.bytes = bytes
    }
}

/// A delivery that did not happen (or may not have). The worker retries both kinds; a permanent one is
/// logged as an error because retrying is unlikely to help.
public struct MailTransportError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Whether the next hop said the failure would last (an SMTP 5xx reply).
    public let isPermanent: Bool
    /// What happened, for the log and the outbox row's `last_error`.
    public let description: String

    /// A failure worth retrying: an outage, a timeout, an SMTP 4xx reply.
    public static func temporary(_ description: String) -> Self {
        Self(isPermanent: false, description: description)
    }

    /// A refusal the next hop called final: an SMTP 5xx reply.
    public static func permanent(_ description: String) -> Self {
        Self(isPermanent: true, description: description)
    }
}
