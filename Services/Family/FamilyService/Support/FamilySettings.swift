import KindredMail
import KindredRuntime

/// The family service's own configuration, from the environment, read and checked in this one place:
///
/// - `KINDRED_FAMILY_LINK_BASE`: where links in emails point (default `http://localhost:8080`): an `http://`
///   or `https://` URL.
struct FamilySettings: Sendable {
    /// The mail, with its links under the configured link base.
    let mail: FamilyMail

    /// Reads the settings; an unusable one is a one-line `StartupError` naming its variable.
    init(environment: [String: String]) throws(StartupError) {
        mail = FamilyMail(links: try LinkBase.configured(for: "family", in: environment))
    }
}
