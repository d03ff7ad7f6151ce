import FoundationEssentials
import KindredAuth
import KindredEvents
import KindredHandlers
import KindredMail
public import KindredRuntime

#if canImport(Glibc)
import Glibc
#endif

/// `kindred-identity`: what it serves, owns and needs to start.
public enum IdentityService {
    /// The service as the shared runtime starts it: schema `identity`, port 50051 by default.
    public static let definition: ServiceDefinition = {
        var definition = ServiceDefinition(
            name: "identity",
            defaultPort: 50051,
            migrations: IdentityMigrations.all,
            makeServices: { environment in
                let settings = try IdentitySettings(environment: ProcessInfo.processInfo.environment)
                // One Argon2id at a time per core: more would only queue inside the kernel. Eight waiting per
                // thread is under a second of queue at the measured rate; past that, PASSWORD_HASHING_BUSY at
                // once (README, "Argon2id cost").
                let cores = max(1, sysconf(Int32(_SC_NPROCESSORS_ONLN)))
                let passwords = PasswordHasher(cost: .standard, concurrency: cores, maxQueued: 8 * cores)
                let credentials = try await Credentials.start(
                    database: environment.database, passwords: passwords, settings: settings,
                    logger: environment.logger)
                let accounts = Accounts(
                    database: environment.database, passwords: passwords, lockout: credentials.signIn.lockout,
                    clock: .system, mail: settings.mail,
                    birthDates: BirthDates(cipher: settings.mail.outbox.cipher),
                    logger: environment.logger)
                startBackgroundWork(environment, credentials: credentials, accounts: accounts)
                let events = try EventFeed(
                    outbox: accounts.events, cipher: accounts.birthDates.cipher, pool: environment.database,
                    logger: environment.logger)
                // Closing the feed ends the WatchEvents streams, so they do not hold the drain.
                environment.background.onDrain { await events.close() }
                return [IdentityAPI(credentials: credentials, accounts: accounts, events: events)]
            },
            signingKeys: { environment in
                SigningKeyStore(
                    database: environment.database,
                    secret: try IdentitySettings.secret(ProcessInfo.processInfo.environment))
            }
        )
        definition.commands = IdentityCommands.all
        return definition
    }()

    /// What runs beside the RPCs in every instance, stopped at the drain: delivery of identity's mail (all
    /// three kinds), and the hourly sweeps of expired credentials and of coming of age.
    static func startBackgroundWork(
        _ environment: ServiceEnvironment, credentials: Credentials, accounts: Accounts
    ) {
        let mailWorker = MailDeliveryWorker(
            outbox: accounts.mail.outbox, database: environment.database, settings: environment.mail,
            logger: environment.logger)
        environment.background.start("mail delivery") { await mailWorker.run() }
        environment.background.start("credentials sweep") { await credentials.runSweeps() }
        environment.background.start("coming-of-age sweep") { await accounts.runComingOfAgeSweeps() }
    }
}
