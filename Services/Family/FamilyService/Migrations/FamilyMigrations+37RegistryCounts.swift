import KindredPostgres

extension FamilyMigrations {
    /// How many items each profile's registry holds, kept by triggers on `family.registry_items`, so that a
    /// create checks the 500-item limit by reading one row instead of counting the registry: the count read
    /// every item of the profile (a full registry: 500 index entries and their heap pages, ~1 ms a create under
    /// the mix). Statement triggers with transition tables count every writer alike (a create, a delete, a
    /// profile's deletion cascading, a seed's bulk insert, a replica still on the previous build), so the count
    /// cannot drift from the rows. Creating the triggers locks the table against writes until this migration
    /// commits, so the counts filled below miss no item.
    static let v37RegistryCounts = Migration(
        version: 37, name: "registry_counts",
        sql: """
            CREATE TABLE family.registry_counts (
                profile_id uuid PRIMARY KEY REFERENCES family.baby_profiles ON DELETE CASCADE,
                items integer NOT NULL CHECK (items >= 0));

            CREATE FUNCTION family.registry_items_added() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN
                INSERT INTO family.registry_counts AS c (profile_id, items)
                SELECT profile_id, count(*) FROM added GROUP BY profile_id
                ON CONFLICT (profile_id) DO UPDATE SET items = c.items + excluded.items;
                RETURN NULL;
            END
            $$;

            CREATE FUNCTION family.registry_items_removed() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN
                UPDATE family.registry_counts c SET items = c.items - r.items
                FROM (SELECT profile_id, count(*) AS items FROM removed GROUP BY profile_id) r
                WHERE c.profile_id = r.profile_id;
                RETURN NULL;
            END
            $$;

            CREATE TRIGGER registry_items_added AFTER INSERT ON family.registry_items
                REFERENCING NEW TABLE AS added
                FOR EACH STATEMENT EXECUTE FUNCTION family.registry_items_added();
            CREATE TRIGGER registry_items_removed AFTER DELETE ON family.registry_items
                REFERENCING OLD TABLE AS removed
                FOR EACH STATEMENT EXECUTE FUNCTION family.registry_items_removed();

            INSERT INTO family.registry_counts (profile_id, items)
            SELECT profile_id, count(*) FROM family.registry_items GROUP BY profile_id;
            """)
}
