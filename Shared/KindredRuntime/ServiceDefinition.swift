public import KindredAuth
public import KindredMail
public import KindredPostgres
public import KindredRPC
public import Logging

/// Everything the shared runtime needs to know to start one Kindred service.
public struct ServiceDefinition: Sendable {
    /// The short name: it names the executable (`kindred-<name>`), the PostgreSQL schema and role,
    /// and the environment variables (`KINDRED_<NAME>_...`).
    public var name: String
    /// The port served when neither `--listen` nor the environment names one.
    public var defaultPort: Int
    /// The schema's migrations, in order.
    public var migrations: [Migration]
    /// Builds the service's RPC implementations once the database is ready.
    public var makeServices: @Sendable (ServiceEnvironment) async throws -> [any RPCService]
    /// Builds the source of the keys that verify access tokens; nil (the default) asks identity's
    /// `GetSigningKeys` at `--identity-target`. Identity, which holds the keys, supplies its own.
    public var signingKeys: (@Sendable (ServiceEnvironment) async throws -> any SigningKeySource)?
    /// Commands of this service beside `serve` and `migrate` (`kindred-identity keys rotate`).
    public var commands: [ServiceCommand] = []

    public init(
        name: String,
        defaultPort: Int,
        migrations: [Migration],
        makeServices: @escaping @Sendable (ServiceEnvironment) async throws -> [any RPCService],
        signingKeys: (@Sendable (ServiceEnvironment) async throws -> any SigningKeySource)? = nil
    ) {
        self.name = name
        self.defaultPort = defaultPort
        self.migrations = migrations
        self.makeServices = makeServices
        self.signingKeys = signingKeys
    }

    /// The executable's name, used in messages and logs.
    public var executableName: String { "kindred-\(name)" }
}

/// What a service's RPC implementations are built from.
public struct ServiceEnvironment: Sendable {
    /// The pool connected to the service's own schema, as its own role.
    public let database: PostgresPool
    /// The service's root logger.
    public let logger: Logger
    /// Where the service's mail goes and whom it comes from (`--mail`, `--mail-from`).
    public let mail: MailSettings
    /// Where the service starts work that runs beside its RPCs and stops at the drain.
    public let background: BackgroundWork
    /// Where the other services are (`--identity-target`, `--social-target`, ...).
    public let peers: PeerTargets
    /// The service's own client_credentials token (`KINDRED_CLIENT_ID`, `KINDRED_CLIENT_SECRET`); nil when
    /// they are not set, as for identity, which issues tokens.
    public let credentials: ServiceCredentials?

    init(database: PostgresPool, logger: Logger, settings: ServiceSettings, background: BackgroundWork) throws
    {
        self.database = database
        self.logger = logger
        self.background = background
        mail = settings.mail
        peers = settings.peers
        credentials = try settings.client.map { client in
            do {
                return try ServiceCredentials(
                    clientID: client.id, clientSecret: client.secret, identityTarget: settings.peers.identity)
            } catch {
                throw StartupError("identity target \(settings.peers.identity): \(error)")
            }
        }
    }

    /// The service's own credentials, or why it cannot start without them.
    public func requireCredentials() throws(StartupError) -> ServiceCredentials {
        guard let credentials else {
            throw StartupError("no client credentials: set KINDRED_CLIENT_ID and KINDRED_CLIENT_SECRET")
        }
        return credentials
    }
}

/// Where a service finds its peers, each `host:port`.
public struct PeerTargets: Sendable {
    public var identity: String
    public var family: String
    public var social: String
    public var gamification: String
}
