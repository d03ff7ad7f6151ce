import FoundationEssentials
import KindredMail
import KindredRuntime

/// `kindred-family`: what it serves, owns and needs to start.
public enum FamilyService {
    /// The service as the shared runtime starts it: schema `family`, port 50052 by default.
    public static let definition = ServiceDefinition(
        name: "family",
        defaultPort: 50052,
        migrations: FamilyMigrations.all,
        makeServices: { environment in
            let settings = try FamilySettings(environment: ProcessInfo.processInfo.environment)
            let context = FamilyContext(
                database: environment.database, clock: .system, mail: settings.mail,
                identity: try IdentityDirectory(
                    target: environment.peers.identity, credentials: try environment.requireCredentials()),
                logger: environment.logger)
            let api = try FamilyAPI(context: context)
            environment.background.onDrain { await api.closeStreams() }
            startBackgroundWork(environment)
            return [api]
        }
    )

    /// What runs beside the RPCs in every instance, stopped at the drain: delivery of family's mail.
    static func startBackgroundWork(_ environment: ServiceEnvironment) {
        let mailWorker = MailDeliveryWorker(
            outbox: FamilyMail.outbox, database: environment.database, settings: environment.mail,
            logger: environment.logger)
        environment.background.start("mail delivery") { await mailWorker.run() }
    }
}
