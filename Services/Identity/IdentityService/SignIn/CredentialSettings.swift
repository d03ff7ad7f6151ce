import FoundationEssentials
import KindredAuth
import KindredRuntime

/// The configuration of sign-in and tokens, from the environment:
///
/// - `KINDRED_IDENTITY_SECRET_KEY` (required): standard base64 of 32 random bytes. It seals the signing
///   keys' seeds at rest and keys the failed-sign-in counters; losing it means rotating every key.
/// - `KINDRED_IDENTITY_CLIENTS_FILE`: the `client_credentials` clients (see `ClientRegistry`); unset, none.
/// - `KINDRED_IDENTITY_LINK_BASE`: where links in emails point (default `http://localhost:8080`).
struct CredentialSettings: Sendable {
    static let secretKeyVariable = "KINDRED_IDENTITY_SECRET_KEY"
    static let clientsFileVariable = "KINDRED_IDENTITY_CLIENTS_FILE"
    static let linkBaseVariable = "KINDRED_IDENTITY_LINK_BASE"

    let secret: ServiceSecret
    let clients: ClientRegistry
    let linkBase: String

    init(secret: ServiceSecret, clients: ClientRegistry = .none, linkBase: String = "http://localhost:8080") {
        self.secret = secret
        self.clients = clients
        self.linkBase = linkBase
    }

    /// Reads the settings; a missing or unusable one is a one-line `StartupError` naming its variable.
    init(environment: [String: String]) throws(StartupError) {
        secret = try Self.secret(environment)
        clients = try Self.clients(environment)
        let linkBase = environment[Self.linkBaseVariable] ?? "http://localhost:8080"
        self.linkBase = linkBase.hasSuffix("/") ? String(linkBase.dropLast()) : linkBase
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
}
