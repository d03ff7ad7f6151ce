import FoundationEssentials
import KindredHandlers
import KindredPostgres

/// Reading registry items: unbought ones first, then bought ones, each group in the order the items were
/// added (item ids are UUIDv7), in one statement for a whole page.
extension RegistryItemStore {
    /// Where a page ends: whether its last item was bought, and its id.
    typealias Position = (purchased: Bool, item: RegistryItemID)

    /// Up to `limit` items of `profiles` (only `only`, when given) after `position`.
    static func items(
        of profiles: [BabyProfileID], only: RegistryItemID? = nil, after position: Position?, limit: Int,
        on db: some StatementRunner
    ) async throws -> [StoredRegistryItem] {
        try await db.pureRead(
            """
            SELECT item_id, profile_id, name, description, link_url, created_at, updated_at, purchased_by, purchased_at
            FROM family.registry_items
            WHERE profile_id = ANY(\(PostgresArray(profiles.map(\.description)))::uuid[])
                AND (\(only)::uuid IS NULL OR item_id = \(only)::uuid)
                AND (purchased_by IS NOT NULL, item_id) > (coalesce(\(position?.purchased), false),
                    coalesce(\(position?.item)::uuid, '00000000-0000-0000-0000-000000000000'))
            ORDER BY purchased_by IS NOT NULL, item_id
            LIMIT \(limit)
            """
        ).map(storedItem)
    }

    /// `item` of `profile`, its row locked until `tx` ends; nil when there is no such item.
    static func lock(_ item: RegistryItemID, of profile: BabyProfileID, in tx: PostgresTransaction)
        async throws
        -> StoredRegistryItem?
    {
        try await tx.query(
            """
            SELECT item_id, profile_id, name, description, link_url, created_at, updated_at, purchased_by, purchased_at
            FROM family.registry_items WHERE profile_id = \(profile)::uuid AND item_id = \(item)::uuid FOR UPDATE
            """
        ).first.map(storedItem)
    }

    private static func storedItem(_ row: PostgresRow) throws -> StoredRegistryItem {
        let buyer = try row.decode(UserID?.self, column: 7)
        let boughtAt = try row.decode(Date?.self, column: 8)
        return StoredRegistryItem(
            id: try row.decode(RegistryItemID.self, column: 0),
            profile: try row.decode(BabyProfileID.self, column: 1),
            details: RegistryItemDetails(
                name: try row.decode(String.self, column: 2),
                description: try row.decode(String.self, column: 3),
                linkURL: try row.decode(String.self, column: 4)),
            createdAt: try row.decode(Date.self, column: 5), updatedAt: try row.decode(Date.self, column: 6),
            purchase: buyer.flatMap { buyer in boughtAt.map { (buyer, $0) } })
    }
}
