public import KindredRuntime

/// `kindred-gamification`: what it serves, owns and needs to start.
public enum GamificationService {
    /// The service as the shared runtime starts it: schema `gamification`, port 50054 by default.
    public static let definition = ServiceDefinition(
        name: "gamification",
        defaultPort: 50054,
        migrations: GamificationMigrations.all,
        makeServices: { _ in [] }
    )
}
