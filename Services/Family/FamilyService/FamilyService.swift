import FoundationEssentials
import KindredAuth
import KindredHandlers
import KindredMail
public import KindredRuntime

#if canImport(Glibc)
import Glibc
#endif

/// `kindred-family`: what it serves, owns and needs to start.
public enum FamilyService {
    /// The service as the shared runtime starts it: schema `family`, port 50052 by default.
    public static let definition: ServiceDefinition = {
        var definition = ServiceDefinition(
            name: "family",
            defaultPort: 50052,
            migrations: FamilyMigrations.all,
            makeServices: { environment in
                let settings = try FamilySettings(environment: ProcessInfo.processInfo.environment)
                let context = FamilyContext(
                    database: environment.database, clock: .system, mail: settings.mail,
                    identity: try IdentityDirectory(
                        target: environment.peers.identity, credentials: try environment.requireCredentials()),
                    pinHasher: pinHasher(), logger: environment.logger,
                    cipher: settings.mail.outbox.cipher,
                    photos: FilesystemPhotoStore(root: settings.photoRoot))
                let api = try FamilyAPI(context: context)
                environment.background.onDrain { await api.closeStreams() }
                try startBackgroundWork(environment, context: context)
                return [api]
            }
        )
        definition.commands = FamilyCommands.all
        return definition
    }()

    /// Guardian PINs at identity's Argon2id cost, one hash at a time per core and eight waiting per thread,
    /// as identity sizes its own (its README, "Argon2id cost"); past that, PIN_CHECK_BUSY at once.
    static func pinHasher() -> PasswordHasher {
        let cores = max(1, sysconf(Int32(_SC_NPROCESSORS_ONLN)))
        return PasswordHasher(cost: .standard, concurrency: cores, maxQueued: 8 * cores)
    }

    /// What runs beside the RPCs in every instance, stopped at the drain: delivery of family's mail, the
    /// consumer of identity's events, the consumer of social's events (guardian alerts), the consumer of
    /// gamification's (liked baby names), the weekly summary sweep, the gallery's orphan sweep, and the daily
    /// baby-profile retention purge.
    static func startBackgroundWork(_ environment: ServiceEnvironment, context: FamilyContext) throws {
        let mailWorker = MailDeliveryWorker(
            outbox: context.mail.outbox, database: environment.database, settings: environment.mail,
            logger: environment.logger)
        environment.background.start("mail delivery") { await mailWorker.run() }
        let identityEvents = IdentityEventHandler.consumer(context: context)
        environment.background.start("identity events") { await identityEvents.run() }
        let socialEvents = try GuardianAlerts(context: context).consumer(
            socialTarget: environment.peers.social)
        environment.background.start("social events") { await socialEvents.run() }
        let gamificationEvents = try BabyNameNotices.consumer(
            context: context, gamificationTarget: environment.peers.gamification)
        environment.background.start("gamification events") { await gamificationEvents.run() }
        let summaries = WeeklySummaries(context: context)
        environment.background.start("weekly summary sweep") { await summaries.run() }
        let orphans = PhotoOrphanSweep(context: context)
        environment.background.start("photo orphan sweep") { await orphans.run() }
        let retention = BabyRetention(context: context).job
        environment.background.start("baby profile retention") { await retention.run() }
    }
}
