import KindredAuth
import KindredMail

/// The mail of baby-profile invitations.
extension FamilyMail {
    /// The invitation an owner sends: who invites, to whose profile, as what, the link and the token alone on
    /// its line.
    func babyInvitation(
        to email: String, from inviter: String, baby: String, asOwner: Bool, token: OpaqueToken
    ) throws -> MailMessage {
        let who = inviter.isEmpty ? "A parent on Kindred" : inviter
        let what =
            asOwner
            ? "to share \(baby)'s profile with them as a parent"
            : "to follow \(baby)'s profile: the calendar, the registry and news as it happens"
        return try MailMessage(
            to: email, subject: "\(who) invited you to \(baby)'s profile on Kindred",
            body: """
                Hello,

                \(who) invited you \(what).

                To accept, sign in to Kindred with this email address, verified, and open this link within \
                7 days:

                \(link("baby-invitation", token: token.text))

                Or enter this code in the Kindred app:

                \(token.text)

                The link works once. If you do not know who sent this, you can ignore this email.

                """,
            kind: "baby_invitation")
    }
}
