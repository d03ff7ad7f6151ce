import ArgumentParser
import KindredMail
import Logging

/// The command line every Kindred executable accepts; each option falls back to an environment
/// variable (`KINDRED_<SERVICE>_LISTEN`, `KINDRED_<SERVICE>_DATABASE_URL`, `KINDRED_LOG_LEVEL`, ...).
struct ServiceOptions: ParsableArguments {
    @Option(help: "HOST:PORT to serve on (env KINDRED_<SERVICE>_LISTEN).")
    var listen: String?

    @Option(help: "PostgreSQL URL, postgresql://user:password@host:port/db (env KINDRED_<SERVICE>_DATABASE_URL).")
    var databaseURL: String?

    @Option(help: "trace, debug, info, notice, warning, error or critical (env KINDRED_LOG_LEVEL).")
    var logLevel: String?

    @Flag(help: "Skip migrations at start, for deployments that migrate in a separate job.")
    var noMigrate = false

    @Option(help: "Event loop threads (env KINDRED_EVENT_LOOPS; default: one per core).")
    var eventLoops: Int?

    @Option(help: "Seconds in-flight calls get to finish after SIGTERM (env KINDRED_DRAIN_TIMEOUT; default 20).")
    var drainTimeout: Int?

    @Option(help: "HOST:PORT of kindred-identity, for its token signing keys (env KINDRED_IDENTITY_TARGET).")
    var identityTarget: String?

    @Option(help: "Where mail goes: maildir:DIR or smtp://HOST[:PORT] (env KINDRED_MAIL; default maildir:var/mail).")
    var mail: String?

    @Option(help: "Mail's sender, 'Name <address>' (env KINDRED_MAIL_FROM; default Kindred <no-reply@kindred.local>).")
    var mailFrom: String?
}

/// A service's settings after flags, environment and defaults are combined and validated.
struct ServiceSettings: Sendable {
    var host: String
    var port: Int
    var databaseURL: String
    var logLevel: Logger.Level
    var migrateAtStart: Bool
    var eventLoops: Int?
    var drainTimeout: Duration
    /// Where `GetSigningKeys` is called, unless the service has its own key source.
    var identityTarget: String
    /// Where mail goes and whom it comes from.
    var mail: MailSettings

    /// Combines flags (first), the environment, then defaults; throws a one-line explanation.
    init(options: ServiceOptions, service: ServiceDefinition, environment: [String: String]) throws(StartupError) {
        let prefix = "KINDRED_\(service.name.uppercased())_"
        let listen = options.listen ?? environment[prefix + "LISTEN"] ?? "0.0.0.0:\(service.defaultPort)"
        (host, port) = try ListenAddress.parse(listen)

        guard let url = options.databaseURL ?? environment[prefix + "DATABASE_URL"], !url.isEmpty else {
            throw StartupError("no database URL: pass --database-url or set \(prefix)DATABASE_URL")
        }
        databaseURL = url

        let levelName = options.logLevel ?? environment["KINDRED_LOG_LEVEL"] ?? "info"
        guard let level = Logger.Level(rawValue: levelName.lowercased()) else {
            throw StartupError("unknown log level '\(levelName)': use trace, debug, info, notice, warning, error or critical")
        }
        logLevel = level
        migrateAtStart = !options.noMigrate

        let environmentLoops = try Self.integer(environment, "KINDRED_EVENT_LOOPS")
        eventLoops = options.eventLoops ?? environmentLoops
        if let loops = eventLoops, loops < 1 { throw StartupError("--event-loops must be at least 1") }
        let environmentDrain = try Self.integer(environment, "KINDRED_DRAIN_TIMEOUT")
        let drainSeconds = options.drainTimeout ?? environmentDrain ?? 20
        guard drainSeconds >= 0 else { throw StartupError("--drain-timeout must not be negative") }
        drainTimeout = .seconds(drainSeconds)

        identityTarget = options.identityTarget ?? environment["KINDRED_IDENTITY_TARGET"] ?? "127.0.0.1:50051"
        do {
            _ = try ListenAddress.parse(identityTarget)
        } catch {
            throw StartupError("identity target '\(identityTarget)' is not HOST:PORT")
        }
        mail = try Self.mail(options, environment)
    }

    private static func mail(_ options: ServiceOptions, _ environment: [String: String]) throws(StartupError)
        -> MailSettings
    {
        do {
            return try MailSettings(
                transport: options.mail ?? environment["KINDRED_MAIL"],
                from: options.mailFrom ?? environment["KINDRED_MAIL_FROM"])
        } catch {
            let setting = error.field == "mail" ? "--mail (KINDRED_MAIL)" : "--mail-from (KINDRED_MAIL_FROM)"
            throw StartupError("\(setting): \(error.reason)")
        }
    }

    private static func integer(_ environment: [String: String], _ name: String) throws(StartupError) -> Int? {
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
