import KindredMail
import KindredPostgres

/// The family service's email: every mail leaves through `family.mail_outbox`, written in the transaction of
/// the change it reports. Each kind of mail is built in the `FamilyMail+*.swift` file of the part that sends
/// it; a mail carrying a single-use token shows it in a link under `linkBase` and alone on a line of its own,
/// so an app (or a test reading the maildir) can take it without parsing a URL.
struct FamilyMail: Sendable {
    /// Where links point when `KINDRED_FAMILY_LINK_BASE` is not set: a local app or web front end.
    static let defaultLinkBase = "http://localhost:8080"
    /// The outbox the delivery worker reads.
    static let outbox = MailOutbox(schema: "family")

    /// The scheme, host and any path prefix of the links, without a trailing slash.
    let linkBase: String

    /// Mail with links under `linkBase`, an `http://` or `https://` URL without query or fragment (a trailing
    /// slash is dropped); nil for anything else.
    init?(linkBase: String = Self.defaultLinkBase) {
        guard linkBase.hasPrefix("http://") || linkBase.hasPrefix("https://"),
            !linkBase.contains(where: { $0.isWhitespace || $0 == "?" || $0 == "#" })
        else { return nil }
        self.linkBase = linkBase.hasSuffix("/") ? String(linkBase.dropLast()) : linkBase
    }

    /// Queues `message` inside `tx`: it leaves only if the change it reports commits.
    func send(_ message: MailMessage, in tx: PostgresTransaction) async throws {
        try await Self.outbox.enqueue(message, in: tx)
    }

    /// The link that redeems `token` at `path` (`guardian-invitation`), under the link base.
    func link(_ path: String, token: String) -> String {
        "\(linkBase)/\(path)?token=\(token)"
    }
}
