import KindredRuntime

/// `kindred-identity`: what it serves, owns and needs to start.
public enum IdentityService {
    /// The service as the shared runtime starts it: schema `identity`, port 50051 by default.
    public static let definition = ServiceDefinition(
        name: "identity",
        defaultPort: 50051,
        migrations: IdentityMigrations.all,
        makeServices: { _ in [] }
    )
}
