import KindredRuntime

/// `kindred-family`: what it serves, owns and needs to start.
public enum FamilyService {
    /// The service as the shared runtime starts it: schema `family`, port 50052 by default.
    public static let definition = ServiceDefinition(
        name: "family",
        defaultPort: 50052,
        migrations: FamilyMigrations.all,
        makeServices: { _ in [] }
    )
}
