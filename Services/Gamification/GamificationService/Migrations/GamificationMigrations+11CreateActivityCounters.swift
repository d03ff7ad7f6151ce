import KindredPostgres

extension GamificationMigrations {
    /// Activity counters kept from family's events: one row per counted thing (a count is the number of a
    /// user's rows of a kind, so an undo knows whose count it takes back and a second "attending" adds
    /// nothing), and the key of every family activity applied, so that a replayed event changes nothing.
    static let v11CreateActivityCounters = Migration(
        version: 11, name: "create_activity_counters",
        sql: """
            -- kind: attended (subject: the calendar event), purchased (the registry item), squished (the
            -- photo), commented (the comment).
            CREATE TABLE gamification.activity_counted (
                kind text NOT NULL,
                subject text NOT NULL,
                user_id uuid NOT NULL,
                PRIMARY KEY (kind, subject, user_id)
            );
            CREATE INDEX activity_counted_user ON gamification.activity_counted (user_id, kind);

            -- source: the producing service; activity_id: its activity's id, the same on a replay.
            CREATE TABLE gamification.activity_events_applied (
                source text NOT NULL,
                activity_id text NOT NULL,
                PRIMARY KEY (source, activity_id)
            );
            """)
}
