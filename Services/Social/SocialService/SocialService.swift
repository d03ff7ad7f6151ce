import KindredEvents
import KindredRuntime

/// `kindred-social`: what it serves, owns and needs to start.
public enum SocialService {
    /// The service as the shared runtime starts it: schema `social`, port 50053 by default.
    public static let definition = ServiceDefinition(
        name: "social",
        defaultPort: 50053,
        migrations: SocialMigrations.all,
        makeServices: { environment in
            let events = try EventFeed(
                outbox: SocialEvents.outbox, pool: environment.database, logger: environment.logger)
            // Closing the feed ends the WatchEvents streams, so they do not hold the drain.
            environment.background.onDrain { await events.close() }
            return [SocialAPI(events: events)]
        }
    )
}
