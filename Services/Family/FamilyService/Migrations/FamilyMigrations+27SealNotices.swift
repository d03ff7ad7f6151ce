import KindredPostgres

extension FamilyMigrations {
    /// The notices' titles and bodies are sealed (`NoticeText`): they quote a baby's name, an event's or
    /// registry item's name, a comment. New rows keep them only in `text_sealed`; older rows keep their
    /// plaintext until `kindred-family keys rotate-data` seals it.
    static let v27SealNotices = Migration(
        version: 27, name: "seal_notices",
        sql: """
            ALTER TABLE family.notifications
                ADD COLUMN text_sealed bytea,
                ALTER COLUMN title DROP NOT NULL,
                ALTER COLUMN body DROP NOT NULL;
            ALTER TABLE family.push_outbox
                ADD COLUMN text_sealed bytea,
                ALTER COLUMN title DROP NOT NULL,
                ALTER COLUMN body DROP NOT NULL;
            """)
}
