import FoundationEssentials
import KindredAuth
import KindredMail
import KindredRuntime

/// The identity service's own configuration, from the environment, read and checked in this one place:
///
/// - `KINDRED_IDENTITY_SECRET_KEY` (required): standard base64 of 32 random bytes. It seals the signing
///   keys' seeds at rest and keys the failed-sign-in counters; losing it means rotating every key.
/// - `KINDRED_IDENTITY_CLIENTS_FILE`: the `client_credentials` clients (see `ClientRegistry`); unset, none.
/// - `KINDRED_IDENTITY_LINK_BASE`: where links in emails point (default `http://localhost:8080`): an
///   `http://` or `https://` URL.
/// - `KINDRED_DATA_KEYS` (or `KINDRED_DATA_KEYS_FILE`, required): identity's data keys, which seal dates of
///   birth and the mail outbox (`FieldCipher.configured`).
struct IdentitySettings: Sendable {
    static let secretKeyVariable = "KINDRED_IDENTITY_SECRET_KEY"
    static let clientsFileVariable = "KINDRED_IDENTITY_CLIENTS_FILE"

    let secret: ServiceSecret
    let clients: ClientRegistry
    /// The mail, with its links under the configured link base, sealed under identity's data keys.
    let mail: IdentityMail

    init(secret: ServiceSecret, clients: ClientRegistry = .none, mail: IdentityMail) {
        self.secret = secret
        self.clients = clients
        self.mail = mail
    }

    /// Reads the settings; a missing or unusable one is a one-line `StartupError` naming its variable.
    init(environment: [String: String]) throws(StartupError) {
        secret = try Self.secret(environment)
        clients = try Self.clients(environment)
        mail = try Self.mail(environment)
    }

    static func secret(_ environment: [String: String]) throws(StartupError) -> ServiceSecret {
        guard let text = environment[secretKeyVariable], !text.isEmpty else {
            throw StartupError(
                "no \(secretKeyVariable): set it to the base64 of 32 random bytes (head -c 32 /dev/urandom | base64)"
            )
        }
        do {
            return try ServiceSecret(base64: text)
        } catch {
            throw StartupError("\(secretKeyVariable): \(error)")
        }
    }

    private static func clients(_ environment: [String: String]) throws(StartupError) -> ClientRegistry {
        guard let path = environment[clientsFileVariable], !path.isEmpty else { return .none }
        let text: String
        do {
            text = try String(contentsOfFile: path, encoding: .utf8)
        } catch {
            throw StartupError("\(clientsFileVariable): cannot read \(path)")
        }
        do {
            return try ClientRegistry(parsing: text)
        } catch {
            throw StartupError("\(clientsFileVariable): \(path) \(error)")
        }
    }

    private static func mail(_ environment: [String: String]) throws(StartupError) -> IdentityMail {
        let links = try LinkBase.configured(for: "identity", in: environment)
        return IdentityMail(
            links: links, cipher: try FieldCipher.configured(for: "identity", in: environment))
    }
}
