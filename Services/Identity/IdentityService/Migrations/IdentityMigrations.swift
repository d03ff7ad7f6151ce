import KindredEvents
import KindredMail
import KindredPostgres

/// The `identity` schema's migrations, in order; each one is shipped once and never edited after release.
enum IdentityMigrations {
    static let all: [Migration] = [
        v1CreateAccounts,
        v2CreateCredentials,
        MailOutbox.migration(schema: "identity", version: 3),
        EventOutbox.migration(schema: "identity", version: 4),
        v5AddDeviceModeChains,
        v6SealDatesOfBirth,
        OutboxTraceparent(EventOutbox(schema: "identity")).migration(version: 7),
        v8GuardianPinChains,
        MailOutbox.sealingMigration(schema: "identity", version: 9),
        v10SealEmails,
    ]
}
