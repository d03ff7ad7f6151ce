public import KindredAuth

/// A mail's recipient, subject and body as the outbox seals them: one value, the three joined by NUL bytes,
/// which none of them can hold (`MailMessage` refuses a NUL in the body and any control character in the
/// subject; an address is plain ASCII).
public struct SealedMail: Sendable, Equatable {
    /// The recipient's bare address.
    public let recipient: String
    /// The subject line.
    public let subject: String
    /// The plain-text body.
    public let body: String

    var bytes: [UInt8] { Array("\(recipient)\u{0}\(subject)\u{0}\(body)".utf8) }

    init(recipient: String, subject: String, body: String) {
        self.recipient = recipient
        self.subject = subject
        self.body = body
    }

    init?(bytes: [UInt8]) {
        let parts = bytes.split(separator: 0, maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count == 3 else { return nil }
        self.init(
            recipient: String(decoding: parts[0], as: UTF8.self),
            subject: String(decoding: parts[1], as: UTF8.self),
            body: String(decoding: parts[2], as: UTF8.self))
    }
}

extension MailOutbox {
    /// `mail` sealed for the row of `messageID` (lowercase, as PostgreSQL prints a uuid).
    func seal(_ mail: SealedMail, messageID: String) -> [UInt8] {
        cipher.seal(mail.bytes, context: context(messageID))
    }

    /// The mail a row holds: sealed, or the plaintext columns of a row queued before sealing began; nil for a
    /// sent row, which keeps neither.
    public func open(plain: (String?, String?, String?), sealed: [UInt8]?, messageID: String) throws
        -> SealedMail?
    {
        guard let sealed else {
            guard let recipient = plain.0, let subject = plain.1, let body = plain.2 else { return nil }
            return SealedMail(recipient: recipient, subject: subject, body: body)
        }
        guard let mail = SealedMail(bytes: try cipher.open(sealed, context: context(messageID))) else {
            throw FieldCipherError.malformed
        }
        return mail
    }

    private func context(_ messageID: String) -> String { "\(table).mail/\(messageID)" }
}
