import FoundationEssentials
import KindredHandlers
import KindredPostgres

/// `family.registry_items` (migration 14): writes here, purchases and reads in `RegistryItemStore+Reads.swift`.
enum RegistryItemStore {
    /// Holds `owner`'s membership of `profile` and reads the names their activity shows
    /// (`BabyActivityStore.authorHold`); for a member, takes the transaction-scoped advisory lock on creates on
    /// the profile, so that two creates racing for the registry's last place count one after the other (the
    /// count alone, under READ COMMITTED, would let both in), and answers the item `owner` created on it under
    /// `requestID`, if any. One statement: nil when `owner` is not a member of the active profile.
    static func lockCreates(
        on profile: BabyProfileID, findingCreatedBy owner: UserID, requestID: String, seals: BabySeals,
        in tx: PostgresTransaction
    ) async throws -> (author: ActivityAuthor, earlier: RegistryItemID?)? {
        let rows = try await tx.query(
            """
            WITH author AS (\(BabyActivityStore.authorHold(owner, of: profile)))
            SELECT author.*,
                pg_advisory_xact_lock(hashtextextended('family.registry_items ' || \(profile.description), 0)),
                (\(created(by: owner, requestID: requestID, on: profile)))
            FROM author
            """)
        guard let row = rows.first, let author = try BabyActivityStore.author(row, of: profile, seals: seals)
        else { return nil }
        // The lock's (void) column, then the earlier item's id, follow the author's thirteen.
        return (author, try row.decode(RegistryItemID?.self, column: 14))
    }

    /// Inserts `item` unless `profile` already holds `limit` items (nil then), and answers it as stored (its
    /// times to the microsecond, as every later read has them), so that the create reads nothing back. Its caller holds the lock on
    /// creates on the profile (`lockCreates`), taken in an earlier statement: this one's count then sees every
    /// create that held it before.
    static func insert(
        _ item: StoredRegistryItem, by owner: UserID, requestID: String, limit: Int,
        texts: SealedTexts<RegistryTexts.Key>, in tx: PostgresTransaction
    ) async throws -> StoredRegistryItem? {
        let d = item.details
        let key = RegistryTexts.Key(profile: item.profile, item: item.id)
        let sealed = texts.seal(d.texts, of: key)
        let link = RegistryTexts.link(with: texts.cipher).seal(d.linkURL, of: key)
        return try await tx.query(
            """
            INSERT INTO family.registry_items
                (profile_id, item_id, texts_sealed, link_url_sealed, created_by, request_id, created_at,
                updated_at)
            SELECT \(item.profile)::uuid, \(item.id)::uuid, \(sealed)::bytea, \(link)::bytea, \(owner)::uuid,
                \(requestID), \(item.createdAt), \(item.updatedAt)
            WHERE (SELECT count(*) FROM family.registry_items WHERE profile_id = \(item.profile)::uuid) < \(limit)
            RETURNING name, description, texts_sealed, item_id, profile_id, link_url, created_at, updated_at,
                purchased_by, purchased_at, link_url_sealed
            """
        ).first.map { try storedItem($0, texts: texts) }
    }

    /// The item `owner` created on `profile` under `requestID`, if any.
    static func created(
        by owner: UserID, requestID: String, on profile: BabyProfileID, on db: some StatementRunner
    )
        async throws -> RegistryItemID?
    {
        try await db.query(created(by: owner, requestID: requestID, on: profile)).first.map {
            try $0.decode(RegistryItemID.self, column: 0)
        }
    }

    /// The SELECT of `created`, for `lockCreates`.
    private static func created(by owner: UserID, requestID: String, on profile: BabyProfileID)
        -> PostgresQuery
    {
        """
        SELECT item_id FROM family.registry_items
        WHERE profile_id = \(profile)::uuid AND created_by = \(owner)::uuid AND request_id = \(requestID)
        """
    }

    /// Changes the item to `d`, its texts sealed with `texts`.
    static func update(
        _ item: RegistryItemID, of profile: BabyProfileID, to d: RegistryItemDetails,
        texts: SealedTexts<RegistryTexts.Key>, at now: Date, in tx: PostgresTransaction
    ) async throws {
        let key = RegistryTexts.Key(profile: profile, item: item)
        let sealed = texts.seal(d.texts, of: key)
        let link = RegistryTexts.link(with: texts.cipher).seal(d.linkURL, of: key)
        try await tx.query(
            """
            UPDATE family.registry_items
            SET name = NULL, description = NULL, texts_sealed = \(sealed)::bytea, link_url = '',
                link_url_sealed = \(link)::bytea, updated_at = \(now)
            WHERE profile_id = \(profile)::uuid AND item_id = \(item)::uuid
            """)
    }

    /// Deletes the item; false when there was none.
    static func delete(_ item: RegistryItemID, of profile: BabyProfileID, in tx: PostgresTransaction)
        async throws
        -> Bool
    {
        try await !tx.query(
            """
            DELETE FROM family.registry_items WHERE profile_id = \(profile)::uuid AND item_id = \(item)::uuid
            RETURNING 1
            """
        ).isEmpty
    }

    /// Holds `buyer`'s membership of `profile` and reads the names their activity shows
    /// (`BabyActivityStore.authorHold`), then, when they follow it, marks the item bought by them where nobody
    /// has bought it: of two racing, the second waits for the first's row lock, then finds `purchased_by` set
    /// and changes nothing. One statement: the author (nil when not a member of the active profile), and the
    /// item as bought, opened with `texts`, when this purchase won; nil otherwise.
    static func purchase(
        _ item: RegistryItemID, of profile: BabyProfileID, by buyer: UserID, at now: Date,
        texts: SealedTexts<RegistryTexts.Key>, seals: BabySeals, in tx: PostgresTransaction
    ) async throws -> (author: ActivityAuthor, bought: StoredRegistryItem?)? {
        let rows = try await tx.query(
            """
            WITH author AS (\(BabyActivityStore.authorHold(buyer, of: profile))),
            bought AS (
                UPDATE family.registry_items SET purchased_by = \(buyer)::uuid, purchased_at = \(now)
                WHERE profile_id = \(profile)::uuid AND item_id = \(item)::uuid AND purchased_by IS NULL
                  AND (SELECT role FROM author) = \(BabyRole.follower.rawValue)::smallint
                RETURNING name, description, texts_sealed, item_id, profile_id, link_url, created_at, updated_at,
                    purchased_by, purchased_at, link_url_sealed)
            SELECT author.*, bought.* FROM author LEFT JOIN bought ON true
            """)
        guard let row = rows.first, let author = try BabyActivityStore.author(row, of: profile, seals: seals)
        else { return nil }
        // The item's columns follow the author's thirteen; its id is never NULL when one was bought.
        guard try row.decode(RegistryItemID?.self, column: 16) != nil else { return (author, nil) }
        return (author, try storedItem(row, from: 13, texts: texts))
    }

    /// Makes the item unbought again (with its COMMIT: nothing in the transaction reads it back).
    static func undoPurchase(_ item: RegistryItemID, of profile: BabyProfileID, in tx: PostgresTransaction) {
        tx.queryAtCommit(
            """
            UPDATE family.registry_items SET purchased_by = NULL, purchased_at = NULL
            WHERE profile_id = \(profile)::uuid AND item_id = \(item)::uuid
            """)
    }
}
