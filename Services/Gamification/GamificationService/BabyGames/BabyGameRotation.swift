import KindredHandlers
import KindredPostgres
import KindredRuntime

/// Revealed games as `kindred-gamification keys rotate-data` re-seals them (`SealedColumn`): in batches by
/// profile id, opening what an older key sealed, and sealing the plaintext of games revealed before sealing.
struct BabyGameRotation: SealedColumn {
    static let batch = 500

    let database: PostgresPool
    let seals: BabyGameSeals

    var name: String { "revealed baby games" }

    func resealBatch(after cursor: BabyProfileID?) async throws -> (resealed: Int, next: BabyProfileID?) {
        let (games, next) = try await BabyVoteStore.revealedGames(
            after: cursor, limit: Self.batch, on: database)
        let stale = try games.filter { !seals.cipher.isCurrent($0.sealed) }.map { game in
            let arrival = try seals.open(
                plainDate: game.plainDate, plainName: game.plainName, sealed: game.sealed, of: game.profile)
            return (game, seals.seal(birthDate: arrival.birthDate, name: arrival.name, of: game.profile))
        }
        if !stale.isEmpty {
            try await database.transaction { tx in
                for (game, sealed) in stale { try await BabyVoteStore.reseal(game, as: sealed, in: tx) }
            }
        }
        return (stale.count, next)
    }
}
