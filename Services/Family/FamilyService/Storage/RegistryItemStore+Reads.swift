import FoundationEssentials
import KindredHandlers
import KindredPostgres

/// Reading registry items: unbought ones first, then bought ones, each group in the order the items were
/// added (item ids are UUIDv7), in one statement for a whole page.
extension RegistryItemStore {
    /// Where a page ends: whether its last item was bought, and its id.
    typealias Position = (purchased: Bool, item: RegistryItemID)

    /// Up to `limit` items of `profiles` (only `only`, when given) after `position`, opened with `texts`.
    static func items(
        of profiles: [BabyProfileID], only: RegistryItemID? = nil, after position: Position?, limit: Int,
        texts: SealedTexts<RegistryTexts.Key>, on db: some StatementRunner
    ) async throws -> [StoredRegistryItem] {
        try await db.pureRead(items(of: profiles, only: only, after: position, limit: limit)).map {
            try storedItem($0, texts: texts)
        }
    }

    /// The SELECT of `items`, whose rows `storedItem` decodes: for a read that checks membership in the same
    /// statement (`BabyMemberStore.readAsMember`).
    static func items(
        of profiles: [BabyProfileID], only: RegistryItemID? = nil, after position: Position?, limit: Int
    ) -> PostgresQuery {
        // Each profile's page from registry_items_listing (migration 36), then the first of those: the list's
        // order is an expression, and without that index every item of the profiles was read and sorted. One
        // item's read names it in its own statement: `($1 IS NULL OR i.item_id = $1)` in the listing's made
        // its generic plan read every item of the profile and sort them (161 buffers for a page of 21 of 162
        // items; 29 walking the index).
        let onlyThatItem: PostgresQuery = only.map { "AND i.item_id = \($0)::uuid" } ?? ""
        return """
            SELECT i.name, i.description, i.texts_sealed, i.item_id, i.profile_id, i.link_url, i.created_at,
                i.updated_at, i.purchased_by, i.purchased_at, i.link_url_sealed
            FROM unnest(\(PostgresArray(profiles.map(\.description)))::uuid[]) AS s(profile_id)
            CROSS JOIN LATERAL (
                SELECT * FROM family.registry_items i
                WHERE i.profile_id = s.profile_id \(onlyThatItem)
                    AND (i.purchased_by IS NOT NULL, i.item_id) > (coalesce(\(position?.purchased), false),
                        coalesce(\(position?.item)::uuid, '00000000-0000-0000-0000-000000000000'))
                ORDER BY i.purchased_by IS NOT NULL, i.item_id
                LIMIT \(limit)) i
            ORDER BY i.purchased_by IS NOT NULL, i.item_id
            LIMIT \(limit)
            """
    }

    /// `item` of `profile`, opened with `texts`, its row locked until `tx` ends; nil when there is no such item.
    static func lock(
        _ item: RegistryItemID, of profile: BabyProfileID, texts: SealedTexts<RegistryTexts.Key>,
        in tx: PostgresTransaction
    ) async throws -> StoredRegistryItem? {
        try await tx.query(
            """
            SELECT name, description, texts_sealed, item_id, profile_id, link_url, created_at, updated_at,
                purchased_by, purchased_at, link_url_sealed
            FROM family.registry_items WHERE profile_id = \(profile)::uuid AND item_id = \(item)::uuid FOR UPDATE
            """
        ).first.map { try storedItem($0, texts: texts) }
    }

    /// An item from the columns the reads select (and a purchase returns), from column `first` on, opened with
    /// `texts`.
    static func storedItem(_ row: PostgresRow, from first: Int = 0, texts: SealedTexts<RegistryTexts.Key>)
        throws
        -> StoredRegistryItem
    {
        let (id, profile) = (
            try row.decode(RegistryItemID.self, column: first + 3),
            try row.decode(BabyProfileID.self, column: first + 4)
        )
        let key = RegistryTexts.Key(profile: profile, item: id)
        let opened = try texts.open(try storedTexts(row, from: first), of: key)
        let link = try RegistryTexts.link(with: texts.cipher).open(
            StoredText(
                plain: try row.decode(String.self, column: first + 5),
                sealed: try row.decode([UInt8]?.self, column: first + 10)),
            of: key)
        let buyer = try row.decode(UserID?.self, column: first + 8)
        let boughtAt = try row.decode(Date?.self, column: first + 9)
        return StoredRegistryItem(
            id: id, profile: profile,
            details: RegistryItemDetails(
                name: opened[0], description: opened[1], linkURL: link),
            createdAt: try row.decode(Date.self, column: first + 6),
            updatedAt: try row.decode(Date.self, column: first + 7),
            purchase: buyer.flatMap { buyer in boughtAt.map { (buyer, $0) } })
    }
}
