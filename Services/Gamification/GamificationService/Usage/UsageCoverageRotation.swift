import KindredPostgres
import KindredRuntime

/// The days' usage counts (`gamification.usage_coverage`) as `kindred-gamification keys rotate-data` re-seals
/// them (`SealedColumn`): in batches by (user, day), opening each value sealed under an older key with that key.
struct UsageCoverageRotation: SealedColumn {
    static let batch = 500

    let database: PostgresPool
    let sessions: UsageSessions

    var name: String { "usage coverage" }

    func resealBatch(after cursor: UsageStore.CoverageKey?) async throws
        -> (resealed: Int, next: UsageStore.CoverageKey?)
    {
        let (stale, next) = try await UsageStore.staleCounts(
            after: cursor, cipher: sessions.cipher, limit: Self.batch, on: database)
        let resealed = try stale.map { row in
            (
                row,
                sessions.seal(
                    try sessions.open(row.sealed, day: row.key.day, of: row.key.user), of: row.key.user)
            )
        }
        try await database.transaction { tx in
            for (row, value) in resealed { try await UsageStore.reseal(row, as: value, in: tx) }
        }
        return (resealed.count, next)
    }
}
