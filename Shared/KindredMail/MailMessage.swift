/// One plain-text email to one recipient. Checked when made, so a message that exists can be sent:
/// no line break can reach a header, and nothing in it needs more than UTF-8 text.
public struct MailMessage: Sendable, Equatable {
    /// The recipient's bare address.
    public let to: String
    /// Any Unicode text on one line; non-ASCII is sent as RFC 2047 encoded words.
    public let subject: String
    /// Plain text; line breaks of any style are sent as CRLF, non-ASCII as quoted-printable UTF-8.
    public let body: String
    /// What this mail is (`verify_email`, `password_reset`): for logs and the outbox row, never shown.
    public let kind: String

    /// Checks every field; throws a `MailError` naming the first bad one.
    public init(to: String, subject: String, body: String, kind: String = "mail") throws(MailError) {
        _ = try MailAddress(to, field: "to")
        guard !subject.hasHeaderBreakingCharacters else {
            throw MailError("subject", "contains a line break or control character")
        }
        guard !body.utf8.contains(0) else { throw MailError("body", "contains a NUL character") }
        guard (1...64).contains(kind.utf8.count), kind.utf8.allSatisfy(Self.isKindByte) else {
            throw MailError("kind", "\"\(kind)\" must be 1 to 64 of a-z, 0-9, _, . and -")
        }
        self.to = to
        self.subject = subject
        self.body = body
        self.kind = kind
    }

    private static func isKindByte(_ byte: UInt8) -> Bool {
        (97...122).contains(byte) || (48...57).contains(byte) || byte == 95 || byte == 46 || byte == 45
    }
}
