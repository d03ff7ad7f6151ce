import FoundationEssentials
import KindredRuntime

/// The family service's own configuration, from the environment, read and checked in this one place:
///
/// - `KINDRED_FAMILY_LINK_BASE`: where links in emails point (default `http://localhost:8080`): an `http://`
///   or `https://` URL.
struct FamilySettings: Sendable {
    static let linkBaseVariable = "KINDRED_FAMILY_LINK_BASE"

    /// The mail, with its links under the configured link base.
    let mail: FamilyMail

    init(mail: FamilyMail) {
        self.mail = mail
    }

    /// Reads the settings; an unusable one is a one-line `StartupError` naming its variable.
    init(environment: [String: String]) throws(StartupError) {
        let base = environment[Self.linkBaseVariable] ?? FamilyMail.defaultLinkBase
        guard let mail = FamilyMail(linkBase: base) else {
            throw StartupError("\(Self.linkBaseVariable)=\(base) is not an http:// or https:// URL")
        }
        self.mail = mail
    }
}
