import KindredPostgres

extension FamilyMigrations {
    /// A baby profile's registry: at most 500 items (counted under a per-profile lock at each create), each
    /// bought by at most one follower.
    static let v14CreateRegistry = Migration(
        version: 14, name: "create_registry",
        sql: """
            CREATE TABLE family.registry_items (
                profile_id uuid NOT NULL REFERENCES family.baby_profiles ON DELETE CASCADE,
                -- UUIDv7: the order items were added in.
                item_id uuid NOT NULL,
                name text NOT NULL,
                description text NOT NULL DEFAULT '',
                link_url text NOT NULL DEFAULT '',
                created_by uuid NOT NULL,
                -- CreateRegistryItem's idempotency key.
                request_id text NOT NULL,
                created_at timestamptz NOT NULL,
                updated_at timestamptz NOT NULL,
                -- Who bought it, and when: both or neither. A purchase sets them only where purchased_by is
                -- NULL, so of two racing buyers the second finds it set and buys nothing.
                purchased_by uuid,
                purchased_at timestamptz,
                CHECK ((purchased_by IS NULL) = (purchased_at IS NULL)),
                PRIMARY KEY (profile_id, item_id),
                UNIQUE (profile_id, created_by, request_id)
            );
            """)
}
