import KindredAuth
import KindredMail

extension FamilyMail {
    /// The "forgot PIN" email to the guardian who asked: the link, and its token alone on a line.
    func guardianPinReset(to email: String, guardian: String, minor: String, token: OpaqueToken) throws
        -> MailMessage
    {
        try MailMessage(
            to: email, subject: "Reset the guardian PIN for \(minor) on Kindred",
            body: """
                Hello \(guardian),

                You asked to reset the guardian PIN that protects \(minor)'s parental controls. To choose a new \
                PIN, open this link within 24 hours:

                \(link("guardian-pin-reset", token: token.text))

                Or enter this code in the Kindred app:

                \(token.text)

                The link works once. Until it is used or expires, \(minor)'s parental controls cannot be \
                changed. If you did not ask for this, ignore this email and the link will expire.

                """,
            kind: "guardian_pin_reset")
    }

    /// The confirmation that a reset link set a new PIN, to the address the link went to.
    func guardianPinResetDone(to email: String) throws -> MailMessage {
        try MailMessage(
            to: email, subject: "Your Kindred guardian PIN was reset",
            body: """
                Hello,

                The guardian PIN was just reset with the link we emailed you, and the parental controls can be \
                changed again with the new PIN.

                If this was not you, reset the PIN again from the Kindred app and check who can read your email.

                """,
            kind: "guardian_pin_reset_done")
    }
}
