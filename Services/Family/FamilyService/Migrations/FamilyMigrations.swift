import KindredEvents
import KindredMail
import KindredPostgres

/// The `family` schema's migrations, in order; each one is shipped once and never edited after release.
enum FamilyMigrations {
    static let all: [Migration] = [
        createCore,
        FamilyMail.outbox.migration(version: 2),
        EventCursors.migration(schema: "family", version: 3),
        EventOutbox.migration(schema: "family", version: 4),
        createGuardianInvitations,
        createGuardianPin,
        createApprovals,
        createNotificationDelivery,
        createGuardianAlerts,
    ]
}
