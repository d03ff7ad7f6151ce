import KindredEvents
import KindredPostgres

/// The `social` schema's migrations, in order; each one is shipped once and never edited after release.
enum SocialMigrations {
    static let all: [Migration] = [
        EventOutbox.migration(schema: "social", version: 1),
        v2CreateCore,
        v3CreateContent,
        v4CreateMessaging,
        v5CreateEventParticipation,
        v6CreateReports,
        v7CreateGraphPages,
        EventCursors.migration(schema: "social", version: 8),
        v9CreateFeedInvitations,
        v10SealMessageBodies,
        OutboxTraceparent(SocialEvents.outbox).migration(version: 11),
        v12MarkFilteredEvents,
        v13DropConversationsById,
        v14MarkEventsWithMedia,
        v15PublicEventsInFeedOrder,
    ]
}
