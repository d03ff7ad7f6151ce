import FoundationEssentials
import KindredAuth
import KindredRuntime

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
                let settings = try CredentialSettings(environment: ProcessInfo.processInfo.environment)
                // One Argon2id at a time per core: more would only queue inside the kernel. Eight waiting per
                // thread is under a second of queue at the measured rate; past that, SIGN_IN_BUSY at once
                // (README, "Argon2id cost").
                let cores = max(1, sysconf(Int32(_SC_NPROCESSORS_ONLN)))
                let passwords = PasswordHasher(cost: .standard, concurrency: cores, maxQueued: 8 * cores)
                let credentials = try await Credentials.start(
                    database: environment.database, passwords: passwords, settings: settings,
                    logger: environment.logger)
                environment.background.start("credentials sweep") { await credentials.runSweeps() }
                return [
                    IdentityAPI(
                        database: environment.database, passwords: passwords, logger: environment.logger,
                        credentials: credentials)
                ]
            },
            signingKeys: { environment in
                SigningKeyStore(
                    database: environment.database,
                    secret: try CredentialSettings.secret(ProcessInfo.processInfo.environment))
            }
        )
        definition.commands = IdentityCommands.all
        return definition
    }()
}
