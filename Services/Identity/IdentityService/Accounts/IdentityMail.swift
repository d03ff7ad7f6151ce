import KindredAuth
import KindredMail

/// The emails identity sends about accounts. Each carries its token twice: in a link under `linkBase`, and
/// alone on a line of its own, so an app (or a test reading the maildir) can take it without parsing a URL.
struct IdentityMail: Sendable {
    /// Where links point when `KINDRED_IDENTITY_LINK_BASE` is not set: a local app or web front end.
    static let defaultLinkBase = "http://localhost:8080"

    /// The scheme, host and any path prefix of the links, without a trailing slash.
    let linkBase: String

    /// `linkBase` as configured: an `http://` or `https://` URL; a trailing slash is dropped.
    init(linkBase: String = Self.defaultLinkBase) throws(IdentityConfigurationError) {
        guard linkBase.hasPrefix("http://") || linkBase.hasPrefix("https://"),
            !linkBase.contains(where: { $0.isWhitespace || $0 == "?" || $0 == "#" })
        else {
            throw IdentityConfigurationError(
                "the link base \"\(linkBase)\" must be an http:// or https:// URL")
        }
        self.linkBase = linkBase.hasSuffix("/") ? String(linkBase.dropLast()) : linkBase
    }

    /// The verification email sent at registration and on `ResendVerification`.
    func verification(to email: String, username: String, token: OpaqueToken) throws -> MailMessage {
        try MailMessage(
            to: email, subject: "Confirm your email address for Kindred",
            body: """
                Hello \(username),

                Please confirm that this is your email address by opening this link within 24 hours:

                \(linkBase)/verify-email?token=\(token.text)

                Or enter this code in the Kindred app:

                \(token.text)

                If you did not create a Kindred account, you can ignore this email.

                """,
            kind: "verify_email")
    }

    /// The confirmation email for a requested date-of-birth change.
    func dateOfBirthConfirmation(
        to email: String, username: String, newDate: CalendarDate, token: OpaqueToken
    ) throws -> MailMessage {
        try MailMessage(
            to: email, subject: "Confirm the change of your date of birth on Kindred",
            body: """
                Hello \(username),

                Someone signed in to your Kindred account asked to change its date of birth to \(newDate). \
                The change takes effect only once you open this link, within 24 hours:

                \(linkBase)/confirm-date-of-birth?token=\(token.text)

                Or enter this code in the Kindred app:

                \(token.text)

                If this was not you, ignore this email and change your password.

                """,
            kind: "confirm_date_of_birth")
    }
}

/// A setting of the identity service that cannot be used; the description says which and why.
struct IdentityConfigurationError: Error, CustomStringConvertible {
    let description: String

    init(_ description: String) {
        self.description = description
    }
}
