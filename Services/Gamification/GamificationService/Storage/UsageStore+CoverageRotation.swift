import FoundationEssentials
import KindredAuth
import KindredHandlers
import KindredPostgres

/// What `keys rotate-data` reads and writes of `gamification.usage_coverage`: the days' counts not yet sealed
/// under the current data key.
extension UsageStore {
    /// A coverage row's primary key, where a rotation batch starts after.
    struct CoverageKey: Sendable {
        let user: UserID
        let day: Date
    }

    /// A coverage row as it is stored.
    struct StoredCounts: Sendable {
        let key: CoverageKey
        let sealed: [UInt8]
    }

    /// Up to `limit` coverage rows after `after` (in primary-key order) sealed under a key other than `cipher`'s
    /// current one, and the key the next batch starts after (nil at the end).
    static func staleCounts(after: CoverageKey?, cipher: FieldCipher, limit: Int, on db: some StatementRunner)
        async throws -> (counts: [StoredCounts], next: CoverageKey?)
    {
        let rows = try await db.pureRead(
            """
            SELECT user_id, utc_day::timestamp AT TIME ZONE 'UTC', coverage_sealed
            FROM gamification.usage_coverage
            WHERE (user_id, utc_day) > (
                coalesce(\(after?.user)::uuid, '00000000-0000-0000-0000-000000000000'),
                coalesce((\(after?.day)::timestamptz AT TIME ZONE 'UTC')::date, '-infinity'::date))
            ORDER BY user_id, utc_day LIMIT \(limit)
            """)
        let counts = try rows.map {
            StoredCounts(
                key: CoverageKey(
                    user: try $0.decode(UserID.self, column: 0), day: try $0.decode(Date.self, column: 1)),
                sealed: try $0.decode([UInt8].self, column: 2))
        }
        return (counts.filter { !cipher.isCurrent($0.sealed) }, rows.count < limit ? nil : counts.last?.key)
    }

    /// Replaces `stored`'s value with `sealed`, unless the row changed since it was read (an upload moved the
    /// day's counts, or a rotation running twice).
    static func reseal(_ stored: StoredCounts, as sealed: [UInt8], in tx: PostgresTransaction) async throws {
        try await tx.query(
            """
            UPDATE gamification.usage_coverage SET coverage_sealed = \(sealed)::bytea
            WHERE user_id = \(stored.key.user)::uuid
                AND utc_day = (\(stored.key.day)::timestamptz AT TIME ZONE 'UTC')::date
                AND coverage_sealed = \(stored.sealed)::bytea
            """)
    }
}
