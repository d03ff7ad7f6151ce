import KindredHandlers
import KindredPostgres

/// What `keys rotate-data` reads and writes of the registry items' texts (`RegistryTexts`).
extension RegistryItemStore {
    /// Up to `limit` items after `after` (nil: from the first), in key order, with their stored texts.
    static func texts(after: RegistryTexts.Key?, limit: Int, on db: PostgresPool) async throws
        -> [(RegistryTexts.Key, StoredTexts)]
    {
        try await db.pureRead(
            """
            SELECT name, description, texts_sealed, profile_id, item_id FROM family.registry_items
            WHERE (profile_id, item_id) > (
                coalesce(\(after?.profile)::uuid, '00000000-0000-0000-0000-000000000000'),
                coalesce(\(after?.item)::uuid, '00000000-0000-0000-0000-000000000000'))
            ORDER BY profile_id, item_id LIMIT \(limit)
            """
        ).map { row in
            let key = RegistryTexts.Key(
                profile: try row.decode(BabyProfileID.self, column: 3),
                item: try row.decode(RegistryItemID.self, column: 4))
            return (key, try storedTexts(row))
        }
    }

    /// Replaces the texts of `key` with `sealed`, if they are still the ones read (`was`).
    static func reseal(
        _ key: RegistryTexts.Key, was: StoredTexts, as sealed: [UInt8], in tx: PostgresTransaction
    ) async throws {
        try await tx.query(
            """
            UPDATE family.registry_items SET texts_sealed = \(sealed)::bytea, name = NULL, description = NULL
            WHERE profile_id = \(key.profile)::uuid AND item_id = \(key.item)::uuid
              AND texts_sealed IS NOT DISTINCT FROM \(was.sealed)::bytea
            """)
    }

    /// The name and description of a row whose three columns from `first` on are the two plaintext columns and
    /// `texts_sealed`.
    static func storedTexts(_ row: PostgresRow, from first: Int = 0) throws -> StoredTexts {
        StoredTexts(
            plain: try (first..<first + 2).map { try row.decode(String?.self, column: $0) },
            sealed: try row.decode([UInt8]?.self, column: first + 2))
    }
}
