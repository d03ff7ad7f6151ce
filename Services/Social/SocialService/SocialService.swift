import KindredRuntime

/// `kindred-social`: what it serves, owns and needs to start.
public enum SocialService {
    /// The service as the shared runtime starts it: schema `social`, port 50053 by default.
    public static let definition = ServiceDefinition(
        name: "social",
        defaultPort: 50053,
        migrations: SocialMigrations.all,
        makeServices: { _ in [] }
    )
}
