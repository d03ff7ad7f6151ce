import KindredPostgres

extension FamilyMigrations {
    /// What guardians are told about their minors' social activity: the activity the weekly summary counts,
    /// and the weeks already summarized.
    static let v9CreateGuardianAlerts = Migration(
        version: 9, name: "create_guardian_alerts",
        sql: """
            -- One row per social event about a minor, named by the event (its source and cursor): handling the
            -- event again adds nothing. Kept five weeks, for the weekly summary.
            CREATE TABLE family.minor_activity (
                minor_id uuid NOT NULL,
                event_key text NOT NULL,
                -- kindred.family.v1.NotificationKind's number of the alert it raised.
                kind smallint NOT NULL,
                occurred_at timestamptz NOT NULL,
                PRIMARY KEY (minor_id, event_key)
            );
            CREATE INDEX minor_activity_occurred ON family.minor_activity (occurred_at);

            -- A guardian's summary of a week (starting Monday 00:00 UTC): the row is claimed in the
            -- transaction that queues the mail, so however many instances sweep, one mail goes out.
            CREATE TABLE family.weekly_summaries (
                guardian_id uuid NOT NULL,
                week_start timestamptz NOT NULL,
                sent_at timestamptz NOT NULL,
                PRIMARY KEY (guardian_id, week_start)
            );
            """)
}
