import ArgumentParser
import KindredMail
import KindredPostgres
import KindredRPC
import Logging

/// The command line every Kindred executable accepts; each option falls back to an environment
/// variable (`KINDRED_<SERVICE>_LISTEN`, `KINDRED_<SERVICE>_DATABASE_URL`, `KINDRED_LOG_LEVEL`, ...).
struct ServiceOptions: ParsableArguments {
    @Option(help: "HOST:PORT to serve on (env KINDRED_<SERVICE>_LISTEN).")
    var listen: String?

    @Option(
        help: "PostgreSQL URL, postgresql://user:password@host:port/db (env KINDRED_<SERVICE>_DATABASE_URL).")
    var databaseURL: String?

    @Option(
        help:
            "PostgreSQL connections kept for work off the event loops: startup, migrations, a loop whose own connections are not up (env KINDRED_DATABASE_CONNECTIONS; default 4)."
    )
    var databaseConnections: Int?

    @Option(
        help:
            "PostgreSQL connections each event loop keeps for transactions, one transaction at a time on each; more wait on the loop (env KINDRED_DATABASE_TRANSACTION_CONNECTIONS; default 4)."
    )
    var databaseTransactionConnections: Int?

    @Option(
        help:
            "HOST:PORT to serve Prometheus metrics on, GET /metrics (env KINDRED_METRICS_LISTEN; default: none)."
    )
    var metricsListen: String?

    @Option(help: "trace, debug, info, notice, warning, error or critical (env KINDRED_LOG_LEVEL).")
    var logLevel: String?

    @Flag(help: "Skip migrations at start, for deployments that migrate in a separate job.")
    var noMigrate = false

    @Option(help: "Event loop threads (env KINDRED_EVENT_LOOPS; default: one per core).")
    var eventLoops: Int?

    @Option(
        help: "Seconds in-flight calls get to finish after SIGTERM (env KINDRED_DRAIN_TIMEOUT; default 20).")
    var drainTimeout: Int?

    @Option(
        help:
            "Seconds a new connection gets to send its HTTP/2 preface and SETTINGS (env KINDRED_HANDSHAKE_TIMEOUT; default 5)."
    )
    var handshakeTimeout: Int?

    @Option(
        help:
            "Seconds a connection may stay without a call before GOAWAY (env KINDRED_IDLE_TIMEOUT; default 300)."
    )
    var idleTimeout: Int?

    @Option(help: "Most connections served at once (env KINDRED_MAX_CONNECTIONS; default 10000).")
    var maxConnections: Int?

    @Option(
        help:
            "Seconds (±10%) after which a connection is sent GOAWAY, so balancing clients reconnect and reach new instances (env KINDRED_MAX_CONNECTION_AGE; default: no limit)."
    )
    var maxConnectionAge: Int?

    @Option(
        help:
            "Milliseconds the fastest call of each 100 ms may take before each event loop admits fewer unary calls at once and refuses the rest with UNAVAILABLE SERVER_OVERLOADED; 0 admits every call (env KINDRED_ADMISSION_TARGET; default 20)."
    )
    var admissionTarget: Int?

    @Option(
        help:
            "Unary calls each event loop still admits at once however slow calls get (env KINDRED_ADMISSION_MINIMUM; default 8)."
    )
    var admissionMinimum: Int?

    @Option(
        help:
            "Once a peer refuses this service's calls for overload, calls sent to it for each it accepts; the rest are refused here, unsent (client-side throttling, Google's SRE book); 0 sends every call (env KINDRED_PEER_THROTTLE; default 2)."
    )
    var peerThrottle: Double?

    @Option(help: "HOST:PORT of kindred-identity, for its token signing keys (env KINDRED_IDENTITY_TARGET).")
    var identityTarget: String?

    @Option(help: "HOST:PORT of kindred-family (env KINDRED_FAMILY_TARGET; default 127.0.0.1:50052).")
    var familyTarget: String?

    @Option(help: "HOST:PORT of kindred-social (env KINDRED_SOCIAL_TARGET; default 127.0.0.1:50053).")
    var socialTarget: String?

    @Option(
        help: "HOST:PORT of kindred-gamification (env KINDRED_GAMIFICATION_TARGET; default 127.0.0.1:50054).")
    var gamificationTarget: String?

    @Option(
        help:
            "Where mail goes: maildir:DIR or smtp://HOST[:PORT] (env KINDRED_MAIL; default maildir:var/mail)."
    )
    var mail: String?

    @Option(
        help:
            "Mail's sender, 'Name <address>' (env KINDRED_MAIL_FROM; default Kindred <no-reply@kindred.local>)."
    )
    var mailFrom: String?

    @OptionGroup(title: "TLS")
    var tls: TLSOptions

    @OptionGroup(title: "Logs")
    var log: LogOptions
}

/// A service's settings after flags, environment and defaults are combined and validated.
struct ServiceSettings: Sendable {
    var host: String
    var port: Int
    /// Where `/metrics` is served; nil serves none.
    var metricsListen: (host: String, port: Int)?
    var databaseURL: String
    /// The pool's connection threads, and each event loop's transaction connections; nil: the pool's defaults
    /// (`PostgresConfiguration`).
    var databaseConnections: Int?
    var databaseTransactionConnections: Int?
    var logLevel: Logger.Level
    /// The log file (or standard error) and whether probes leave access lines.
    var logs: LogSettings
    var migrateAtStart: Bool
    var eventLoops: Int?
    var drainTimeout: Duration
    /// How long a new connection has for its handshake, and an idle one before GOAWAY.
    var handshakeTimeout: Duration
    var idleTimeout: Duration
    var maxConnections: Int
    /// How long a connection may live before GOAWAY; nil: no limit.
    var maxConnectionAge: Duration?
    /// When each loop refuses unary calls rather than queue them (`AdmissionLimit`).
    var admission = AdmissionSettings()
    /// How the service's clients of its peers throttle themselves (`ClientThrottle`); nil: they do not.
    var peerThrottle: ClientThrottle.Settings?
    /// Where the other services are; identity's `GetSigningKeys` too, unless the service has its own keys.
    var peers: PeerTargets
    /// `KINDRED_CLIENT_ID` and `KINDRED_CLIENT_SECRET`: the service's client_credentials at identity, when set.
    var client: (id: String, secret: String)?
    /// Where mail goes and whom it comes from.
    var mail: MailSettings
    /// TLS on the listener and towards the peers; h2c unless the TLS flags are given.
    var tls: TLSSetup

    /// Combines flags (first), the environment, then defaults; throws a one-line explanation.
    init(options: ServiceOptions, service: ServiceDefinition, environment: [String: String])
        throws(StartupError)
    {
        let prefix = "KINDRED_\(service.name.uppercased())_"
        let listen = options.listen ?? environment[prefix + "LISTEN"] ?? "0.0.0.0:\(service.defaultPort)"
        (host, port) = try ListenAddress.parse(listen)
        if let metrics = options.metricsListen ?? environment["KINDRED_METRICS_LISTEN"], !metrics.isEmpty {
            metricsListen = try ListenAddress.parse(metrics)
        }

        guard let url = options.databaseURL ?? environment[prefix + "DATABASE_URL"], !url.isEmpty else {
            throw StartupError("no database URL: pass --database-url or set \(prefix)DATABASE_URL")
        }
        databaseURL = url
        databaseConnections = try Self.connectionCount(
            options.databaseConnections, environment, "KINDRED_DATABASE_CONNECTIONS", "--database-connections"
        )
        databaseTransactionConnections = try Self.connectionCount(
            options.databaseTransactionConnections, environment, "KINDRED_DATABASE_TRANSACTION_CONNECTIONS",
            "--database-transaction-connections")

        let levelName = options.logLevel ?? environment["KINDRED_LOG_LEVEL"] ?? "info"
        guard let level = Logger.Level(rawValue: levelName.lowercased()) else {
            throw StartupError(
                "unknown log level '\(levelName)': use trace, debug, info, notice, warning, error or critical"
            )
        }
        logLevel = level
        logs = try LogSettings(options: options.log, environment: environment)
        migrateAtStart = !options.noMigrate

        let environmentLoops = try Self.integer(environment, "KINDRED_EVENT_LOOPS")
        eventLoops = options.eventLoops ?? environmentLoops
        if let loops = eventLoops, loops < 1 { throw StartupError("--event-loops must be at least 1") }
        let environmentDrain = try Self.integer(environment, "KINDRED_DRAIN_TIMEOUT")
        let drainSeconds = options.drainTimeout ?? environmentDrain ?? 20
        guard drainSeconds >= 0 else { throw StartupError("--drain-timeout must not be negative") }
        drainTimeout = .seconds(drainSeconds)
        handshakeTimeout = .seconds(
            try Self.positive(
                options.handshakeTimeout, environment, "KINDRED_HANDSHAKE_TIMEOUT", "--handshake-timeout")
                ?? 5)
        idleTimeout = .seconds(
            try Self.positive(options.idleTimeout, environment, "KINDRED_IDLE_TIMEOUT", "--idle-timeout")
                ?? 300)
        maxConnections =
            try Self.positive(
                options.maxConnections, environment, "KINDRED_MAX_CONNECTIONS", "--max-connections")
            ?? 10_000
        maxConnectionAge = try Self.positive(
            options.maxConnectionAge, environment, "KINDRED_MAX_CONNECTION_AGE", "--max-connection-age"
        ).map { .seconds($0) }
        let environmentTarget = try Self.integer(environment, "KINDRED_ADMISSION_TARGET")
        let admissionTarget = options.admissionTarget ?? environmentTarget ?? 20
        guard admissionTarget >= 0 else { throw StartupError("--admission-target must not be negative") }
        admission.isEnabled = admissionTarget > 0
        admission.target = .milliseconds(max(1, admissionTarget))
        if let minimum = try Self.positive(
            options.admissionMinimum, environment, "KINDRED_ADMISSION_MINIMUM", "--admission-minimum")
        {
            admission.minimum = min(minimum, admission.maximum)
        }

        let environmentThrottle = try Self.number(environment, "KINDRED_PEER_THROTTLE")
        let throttle = options.peerThrottle ?? environmentThrottle ?? 2
        // Below 1 a client would refuse calls a healthy peer accepts every one of.
        guard throttle == 0 || (throttle >= 1 && throttle.isFinite) else {
            throw StartupError("--peer-throttle must be 0 (off) or at least 1")
        }
        peerThrottle = throttle == 0 ? nil : ClientThrottle.Settings(k: throttle)

        peers = PeerTargets(
            identity: try Self.target("identity", options.identityTarget, environment, defaultPort: 50051),
            family: try Self.target("family", options.familyTarget, environment, defaultPort: 50052),
            social: try Self.target("social", options.socialTarget, environment, defaultPort: 50053),
            gamification: try Self.target(
                "gamification", options.gamificationTarget, environment, defaultPort: 50054))
        if let id = environment["KINDRED_CLIENT_ID"], !id.isEmpty {
            guard let secret = environment["KINDRED_CLIENT_SECRET"], !secret.isEmpty else {
                throw StartupError("KINDRED_CLIENT_ID is set but KINDRED_CLIENT_SECRET is not")
            }
            client = (id, secret)
        }
        mail = try Self.mail(options, environment)
        tls = try TLSSetup(options: options.tls, environment: environment)
    }

    /// A peer's `host:port`: the flag, else `KINDRED_<PEER>_TARGET`, else the peer's default port on loopback.
    private static func target(
        _ peer: String, _ flag: String?, _ environment: [String: String], defaultPort: Int
    ) throws(StartupError) -> String {
        let target = flag ?? environment["KINDRED_\(peer.uppercased())_TARGET"] ?? "127.0.0.1:\(defaultPort)"
        do {
            _ = try ListenAddress.parse(target)
        } catch {
            throw StartupError("\(peer) target '\(target)' is not HOST:PORT")
        }
        return target
    }

    private static func mail(_ options: ServiceOptions, _ environment: [String: String]) throws(StartupError)
        -> MailSettings
    {
        do {
            return try MailSettings(
                transport: options.mail ?? environment["KINDRED_MAIL"],
                from: options.mailFrom ?? environment["KINDRED_MAIL_FROM"], environment: environment)
        } catch {
            let setting =
                switch error.field {
                case "mail": "--mail (KINDRED_MAIL)"
                case "mail-from": "--mail-from (KINDRED_MAIL_FROM)"
                default: error.field
                }
            throw StartupError("\(setting): \(error.reason)")
        }
    }

    /// A whole number above zero from the flag, else the environment; nil when neither is set.
    private static func positive(
        _ flag: Int?, _ environment: [String: String], _ variable: String, _ name: String
    ) throws(StartupError) -> Int? {
        let environmentValue = try integer(environment, variable)
        guard let value = flag ?? environmentValue else { return nil }
        guard value > 0 else { throw StartupError("\(name) must be at least 1") }
        return value
    }

    /// A number of PostgreSQL connections from the flag, else the environment, in the range the pool takes.
    private static func connectionCount(
        _ flag: Int?, _ environment: [String: String], _ variable: String, _ name: String
    ) throws(StartupError) -> Int? {
        guard let count = try positive(flag, environment, variable, name) else { return nil }
        let most = PostgresConfiguration.connectionCounts.upperBound
        guard count <= most else { throw StartupError("\(name) must be at most \(most)") }
        return count
    }

    private static func number(_ environment: [String: String], _ name: String) throws(StartupError)
        -> Double?
    {
        guard let text = environment[name] else { return nil }
        guard let value = Double(text) else { throw StartupError("\(name)=\(text) is not a number") }
        return value
    }

    private static func integer(_ environment: [String: String], _ name: String) throws(StartupError) -> Int?
    {
        guard let text = environment[name] else { return nil }
        guard let value = Int(text) else { throw StartupError("\(name)=\(text) is not a whole number") }
        return value
    }
}

/// A reason the executable cannot start, printed as one line before exiting non-zero.
public struct StartupError: Error, CustomStringConvertible {
    public var description: String

    public init(_ description: String) {
        self.description = description
    }
}
