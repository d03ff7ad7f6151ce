import KindredPostgres
import KindredRuntime

/// Usage sessions as `kindred-gamification keys rotate-data` re-seals them (`SealedColumn`): in batches by
/// (user, session id), opening a session under an older key with that key, and sealing plaintext sessions from
/// before sealing began.
struct UsageSessionRotation: SealedColumn {
    static let batch = 500

    let database: PostgresPool
    let sessions: UsageSessions

    var name: String { "usage sessions" }

    func resealBatch(after cursor: UsageStore.SessionKey?) async throws
        -> (resealed: Int, next: UsageStore.SessionKey?)
    {
        let (stale, next) = try await UsageStore.staleSessions(
            after: cursor, cipher: sessions.cipher, limit: Self.batch, on: database)
        let resealed = try stale.map { row in
            (row, sessions.seal(try sessions.open(row.stored, of: row.user), of: row.user))
        }
        try await database.transaction { tx in
            for (row, value) in resealed {
                try await UsageStore.reseal(row.stored, of: row.user, as: value, in: tx)
            }
        }
        return (resealed.count, next)
    }
}
