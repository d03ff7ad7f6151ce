import KindredAuth
import KindredMail

/// The mails of guardian links and coming of age.
extension FamilyMail {
    /// The invitation a minor sends a would-be guardian: the link, and the token alone on its line.
    func guardianInvitation(to email: String, from displayName: String, token: OpaqueToken) throws
        -> MailMessage
    {
        let inviter =
            displayName.isEmpty ? "A young person using Kindred" : "\(displayName), who uses Kindred,"
        return try MailMessage(
            to: email, subject: "You are invited to be a guardian on Kindred",
            body: """
                Hello,

                \(inviter) asked you to be their guardian. As their guardian you set their parental \
                controls and approve what needs approving.

                To accept, sign in to Kindred with a verified email address (you must be 18 or older) and \
                open this link within 7 days:

                \(link("guardian-invitation", token: token.text))

                Or enter this code in the Kindred app:

                \(token.text)

                The link works once. If you do not know who sent this, you can ignore this email.

                """,
            kind: "guardian_invitation")
    }

    /// The note to a user who turned 18 that parental controls no longer apply.
    func cameOfAge(to email: String, username: String) throws -> MailMessage {
        try MailMessage(
            to: email, subject: "Parental controls are now off on Kindred",
            body: """
                Hello \(username),

                Happy birthday! You are 18 now, so the parental controls on your Kindred account are off and \
                your guardians no longer manage your settings.

                """,
            kind: "came_of_age")
    }
}
