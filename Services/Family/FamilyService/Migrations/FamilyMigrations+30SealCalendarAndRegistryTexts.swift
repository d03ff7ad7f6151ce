import KindredPostgres

extension FamilyMigrations {
    /// Calendar events' names, descriptions and locations (`CalendarTexts`) and registry items' names and
    /// descriptions (`RegistryTexts`) are sealed: new rows keep them only in `texts_sealed`; older ones keep the
    /// plaintext until `kindred-family keys rotate-data` seals it.
    static let v30SealCalendarAndRegistryTexts = Migration(
        version: 30, name: "seal_calendar_and_registry_texts",
        sql: """
            ALTER TABLE family.calendar_events
                ADD COLUMN texts_sealed bytea,
                ALTER COLUMN name DROP NOT NULL,
                ALTER COLUMN description DROP NOT NULL,
                ALTER COLUMN description DROP DEFAULT,
                ALTER COLUMN location DROP NOT NULL,
                ALTER COLUMN location DROP DEFAULT;
            ALTER TABLE family.registry_items
                ADD COLUMN texts_sealed bytea,
                ALTER COLUMN name DROP NOT NULL,
                ALTER COLUMN description DROP NOT NULL,
                ALTER COLUMN description DROP DEFAULT;
            """)
}
