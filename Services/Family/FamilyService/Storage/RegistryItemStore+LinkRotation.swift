import KindredHandlers
import KindredPostgres

/// What `keys rotate-data` reads and writes of the registry items' shop links (`RegistryTexts.link`).
extension RegistryItemStore {
    /// Up to `limit` items' links after `after` (nil: from the first), in key order.
    static func links(after: RegistryTexts.Key?, limit: Int, on db: PostgresPool) async throws
        -> [(RegistryTexts.Key, StoredText)]
    {
        try await db.pureRead(
            """
            SELECT profile_id, item_id, link_url, link_url_sealed FROM family.registry_items
            WHERE (profile_id, item_id) > (
                coalesce(\(after?.profile)::uuid, '00000000-0000-0000-0000-000000000000'),
                coalesce(\(after?.item)::uuid, '00000000-0000-0000-0000-000000000000'))
            ORDER BY profile_id, item_id LIMIT \(limit)
            """
        ).decode((BabyProfileID, RegistryItemID, String, [UInt8]?).self).map {
            (RegistryTexts.Key(profile: $0, item: $1), StoredText(plain: $3 == nil ? $2 : nil, sealed: $3))
        }
    }

    /// Replaces the link of `key` with `sealed`, if it is still the one read (`was`).
    static func resealLink(
        _ key: RegistryTexts.Key, was: StoredText, as sealed: [UInt8], in tx: PostgresTransaction
    ) async throws {
        try await tx.query(
            """
            UPDATE family.registry_items SET link_url_sealed = \(sealed)::bytea, link_url = ''
            WHERE profile_id = \(key.profile)::uuid AND item_id = \(key.item)::uuid
              AND link_url_sealed IS NOT DISTINCT FROM \(was.sealed)::bytea
            """)
    }
}
