import KindredEvents
import KindredPostgres

/// The `social` schema's migrations, in order; each one is shipped once and never edited after release.
enum SocialMigrations {
    static let all: [Migration] = [
        EventOutbox.migration(schema: "social", version: 1),
        createCore,
        createContent,
        createMessaging,
        createEventParticipation,
        createReports,
        createGraphPages,
        EventCursors.migration(schema: "social", version: 8),
        createFeedInvitations,
    ]
}
