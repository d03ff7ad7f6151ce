import KindredPostgres

extension SocialMigrations {
    /// Whether an event has media decides whether a page of events needs its second statement (the media);
    /// it was an `EXISTS` on `social.event_media` per row of the page, two or three index pages each once
    /// events have media. An event's media are written with it and never change (they go only with the
    /// event), so `EventStore.insert` writes the answer on the row.
    static let v14MarkEventsWithMedia = Migration(
        version: 14, name: "mark_events_with_media",
        sql: """
            ALTER TABLE social.events ADD COLUMN has_media boolean NOT NULL DEFAULT false;
            UPDATE social.events e SET has_media = true
            WHERE EXISTS (SELECT 1 FROM social.event_media m WHERE m.event_id = e.id);
            """)
}
