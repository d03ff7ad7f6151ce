import KindredPostgres

extension SocialMigrations {
    /// Every read of events (the feed above all, one row at a time before its page's limit) left out the events
    /// reported by enough people with a probe of `social.report_tallies` per candidate: two index pages each,
    /// a third of the feed's buffers. `events.filtered` says it on the row those reads already fetch;
    /// `ReportStore.record` sets it in the statement whose tally reaches the threshold (tallies only grow, so it
    /// is never cleared). The backfill uses `ReportTally.filterThreshold` as it stands (3).
    ///
    /// `event_attendees_by_user`: whether the viewer joined each event of a feed page is read from the viewer's
    /// own attendance, not from a scan of every attendance (the plan the feed took without it).
    static let v12MarkFilteredEvents = Migration(
        version: 12, name: "mark_filtered_events",
        sql: """
            ALTER TABLE social.events ADD COLUMN filtered boolean NOT NULL DEFAULT false;
            UPDATE social.events e SET filtered = true
            FROM social.report_tallies t
            WHERE t.content_kind = 3 AND t.content_id = e.id AND t.reporters >= 3;
            CREATE INDEX event_attendees_by_user ON social.event_attendees (user_id, event_id);
            """)
}
