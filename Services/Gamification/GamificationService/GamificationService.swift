public import KindredRuntime

/// `kindred-gamification`: what it serves, owns and needs to start.
public enum GamificationService {
    /// The service as the shared runtime starts it: schema `gamification`, port 50054 by default.
    public static let definition = ServiceDefinition(
        name: "gamification",
        defaultPort: 50054,
        migrations: GamificationMigrations.all,
        makeServices: { environment in
            let context = GamificationContext(
                database: environment.database, clock: .system,
                friends: try SocialFriendGraph(
                    socialTarget: environment.peers.social, credentials: try environment.requireCredentials()),
                logger: environment.logger)
            let api = try GamificationAPI(context: context)
            environment.background.onDrain { await api.closeStreams() }
            let challenges = api.challenges
            environment.background.start("challenge sweep") { await challenges.runSweeps() }
            return [api]
        }
    )
}
