import KindredAuth
import KindredMail
import KindredPostgres

/// Every email identity sends: verification, date-of-birth confirmation and password reset. Each carries its
/// token twice: in a link under `links`, and alone on a line of its own, so an app (or a test reading the
/// maildir) can take it without parsing a URL. Mail leaves through `identity.mail_outbox`, written in the
/// transaction of the change it reports.
struct IdentityMail: Sendable {
    /// At most one mail of a kind per account in this time, so nobody can flood a mailbox through us.
    static let resendInterval: Duration = .seconds(60)

    /// Where the links point (`KINDRED_IDENTITY_LINK_BASE`).
    let links: LinkBase
    /// The outbox the delivery worker reads, each mail sealed under identity's data keys until it is sent.
    let outbox: MailOutbox

    /// Mail with links under `links`, sealed in the outbox under `cipher`.
    init(links: LinkBase, cipher: FieldCipher) {
        self.links = links
        outbox = MailOutbox(schema: "identity", cipher: cipher)
    }

    /// Queues `message` inside `tx`: it leaves only if the change it reports commits.
    func send(_ message: MailMessage, in tx: PostgresTransaction) async throws {
        try await outbox.enqueue(message, in: tx)
    }

    /// The verification email sent at registration and on `ResendVerification`.
    func verification(to email: String, username: String, token: OpaqueToken) throws -> MailMessage {
        try message(
            .verifyEmail, to: email, username: username, subject: "Confirm your email address for Kindred",
            request: "Please confirm that this is your email address by opening this link within 24 hours:",
            token: token, ending: "If you did not create a Kindred account, you can ignore this email.")
    }

    /// The confirmation email for a requested date-of-birth change.
    func dateOfBirthConfirmation(
        to email: String, username: String, newDate: CalendarDate, token: OpaqueToken
    ) throws -> MailMessage {
        try message(
            .confirmDateOfBirth, to: email, username: username,
            subject: "Confirm the change of your date of birth on Kindred",
            request: """
                Someone signed in to your Kindred account asked to change its date of birth to \(newDate). \
                The change takes effect only once you open this link, within 24 hours:
                """,
            token: token, ending: "If this was not you, ignore this email and change your password.")
    }

    /// The password-reset email.
    func passwordReset(to email: String, username: String, token: OpaqueToken) throws -> MailMessage {
        try message(
            .resetPassword, to: email, username: username, subject: "Reset your Kindred password",
            request: """
                Someone asked to reset the password of your Kindred account. To choose a new one, open this \
                link within an hour:
                """,
            token: token,
            ending: """
                The link works once. If you did not ask for this, ignore this email: your password stays \
                as it is.
                """)
    }

    /// Greeting, what to do, the link, the bare code, and what to do if it was not them. The mail's kind is
    /// the token's purpose, and so is the link's path.
    private func message(
        _ purpose: EmailTokenStore.Purpose, to email: String, username: String, subject: String,
        request: String, token: OpaqueToken, ending: String
    ) throws -> MailMessage {
        try MailMessage(
            to: email, subject: subject,
            body: """
                Hello \(username),

                \(request)

                \(links.link(purpose.linkPath, token: token.text))

                Or enter this code in the Kindred app:

                \(token.text)

                \(ending)

                """,
            kind: purpose.rawValue)
    }
}

extension EmailTokenStore.Purpose {
    /// Where the link to redeem a token of this purpose points, under the link base.
    fileprivate var linkPath: String {
        switch self {
        case .verifyEmail: "verify-email"
        case .confirmDateOfBirth: "confirm-date-of-birth"
        case .resetPassword: "reset-password"
        }
    }
}
