import KindredAuth
import KindredRuntime

#if canImport(Glibc)
    import Glibc
#endif

/// `kindred-identity`: what it serves, owns and needs to start.
public enum IdentityService {
    /// The service as the shared runtime starts it: schema `identity`, port 50051 by default.
    public static let definition = ServiceDefinition(
        name: "identity",
        defaultPort: 50051,
        migrations: IdentityMigrations.all,
        makeServices: { environment in
            [
                IdentityAPI(
                    database: environment.database,
                    // One Argon2id at a time per core: more would only queue inside the kernel.
                    passwords: PasswordHasher(cost: .standard, concurrency: max(1, sysconf(Int32(_SC_NPROCESSORS_ONLN)))),
                    logger: environment.logger)
            ]
        }
    )
}
