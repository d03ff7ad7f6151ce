import KindredAuth
import KindredMail

/// The password-reset email: the token in a link under the link base (`KINDRED_IDENTITY_LINK_BASE`), and
/// alone on a line of its own, so an app (or a test reading the maildir) takes it without parsing a URL.
enum PasswordResetMail {
    static func message(to email: String, username: String, token: OpaqueToken, linkBase: String) throws
        -> MailMessage
    {
        try MailMessage(
            to: email, subject: "Reset your Kindred password",
            body: """
                Hello \(username),

                Someone asked to reset the password of your Kindred account. To choose a new one, open this \
                link within an hour:

                \(linkBase)/reset-password?token=\(token.text)

                Or enter this code in the Kindred app:

                \(token.text)

                The link works once. If you did not ask for this, ignore this email: your password stays as it is.

                """,
            kind: "reset_password")
    }
}
