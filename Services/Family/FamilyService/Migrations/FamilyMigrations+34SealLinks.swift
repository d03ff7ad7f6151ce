import KindredPostgres

extension FamilyMigrations {
    /// Calendar events' video-call links and registry items' shop links are sealed (`CalendarTexts.link`,
    /// `RegistryTexts.link`): a video-call link may admit whoever reads it. New and edited rows keep theirs only
    /// in the `_sealed` column (the plaintext column left empty); older ones keep the plaintext until
    /// `kindred-family keys rotate-data` seals it.
    static let v34SealLinks = Migration(
        version: 34, name: "seal_links",
        sql: """
            ALTER TABLE family.calendar_events ADD COLUMN video_call_url_sealed bytea;
            ALTER TABLE family.registry_items ADD COLUMN link_url_sealed bytea;
            """)
}
