import KindredAuth
import KindredMail
import KindredPostgres

/// The family service's email: every mail leaves through `family.mail_outbox`, written in the transaction of
/// the change it reports. Each kind of mail is built in the `FamilyMail+*.swift` file of the part that sends
/// it; a mail carrying a single-use token shows it in a link (`link(path, token:)`) and alone on a line
/// of its own, so an app (or a test reading the maildir) can take it without parsing a URL.
struct FamilyMail: Sendable {
    /// Where the links point (`KINDRED_FAMILY_LINK_BASE`).
    let links: LinkBase
    /// The outbox the delivery worker reads, each mail sealed under family's data keys until it is sent.
    let outbox: MailOutbox

    /// Mail with links under `links`, sealed in the outbox under `cipher`.
    init(links: LinkBase, cipher: FieldCipher) {
        self.links = links
        outbox = MailOutbox(schema: "family", cipher: cipher)
    }

    /// Queues `message` inside `tx`: it leaves only if the change it reports commits.
    func send(_ message: MailMessage, in tx: PostgresTransaction) async throws {
        try await outbox.enqueue(message, in: tx)
    }

    /// The link that redeems `token` at `path` (`guardian-invitation`), under the link base.
    func link(_ path: String, token: String) -> String {
        links.link(path, token: token)
    }
}
