import KindredPostgres

extension FamilyMigrations {
    /// How many registry items and photos each profile holds, kept by triggers, so that a create checks its
    /// limit (500 items, 1,000 photos) by reading one row instead of counting the profile's rows: counting read
    /// every item or photo of the profile, a cost that grew with it (a registry of 249 items: 84 buffers, 0.30
    /// ms; 1.3 ms a create in the mix; an upload counted its gallery twice). One row per profile and counted
    /// table (`counted`, the table's name, which the triggers take from `TG_TABLE_NAME`), so an upload and a
    /// registry create never wait for each other. Statement triggers with transition tables count every
    /// writer alike (a create, a delete, a profile's deletion cascading, a seed's bulk insert, a replica still
    /// on the previous build), so the counts cannot drift from the rows. Creating the triggers locks both
    /// tables against writes until this migration commits, so the counts filled below miss no row.
    static let v37ProfileCounts = Migration(
        version: 37, name: "profile_counts",
        sql: """
            CREATE TABLE family.profile_counts (
                profile_id uuid NOT NULL REFERENCES family.baby_profiles ON DELETE CASCADE,
                counted text NOT NULL,
                items integer NOT NULL CHECK (items >= 0),
                PRIMARY KEY (profile_id, counted));

            CREATE FUNCTION family.profile_rows_added() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN
                INSERT INTO family.profile_counts AS c (profile_id, counted, items)
                SELECT profile_id, TG_TABLE_NAME, count(*) FROM added GROUP BY profile_id
                ON CONFLICT (profile_id, counted) DO UPDATE SET items = c.items + excluded.items;
                RETURN NULL;
            END
            $$;

            CREATE FUNCTION family.profile_rows_removed() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN
                UPDATE family.profile_counts c SET items = c.items - r.items
                FROM (SELECT profile_id, count(*) AS items FROM removed GROUP BY profile_id) r
                WHERE c.profile_id = r.profile_id AND c.counted = TG_TABLE_NAME;
                RETURN NULL;
            END
            $$;

            CREATE TRIGGER counted_in AFTER INSERT ON family.registry_items
                REFERENCING NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION family.profile_rows_added();
            CREATE TRIGGER counted_out AFTER DELETE ON family.registry_items
                REFERENCING OLD TABLE AS removed FOR EACH STATEMENT EXECUTE FUNCTION family.profile_rows_removed();
            CREATE TRIGGER counted_in AFTER INSERT ON family.baby_photos
                REFERENCING NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION family.profile_rows_added();
            CREATE TRIGGER counted_out AFTER DELETE ON family.baby_photos
                REFERENCING OLD TABLE AS removed FOR EACH STATEMENT EXECUTE FUNCTION family.profile_rows_removed();

            INSERT INTO family.profile_counts (profile_id, counted, items)
            SELECT profile_id, 'registry_items', count(*) FROM family.registry_items GROUP BY profile_id
            UNION ALL
            SELECT profile_id, 'baby_photos', count(*) FROM family.baby_photos GROUP BY profile_id;
            """)
}
