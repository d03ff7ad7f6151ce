import KindredHandlers
import KindredPostgres
import KindredRuntime

/// Message bodies as `kindred-social keys rotate-data` re-seals them (`SealedColumn`): in batches by message
/// id, opening a body under an older key with that key, and sealing plaintext bodies from before sealing began.
struct MessageBodyRotation: SealedColumn {
    static let batch = 500

    let database: PostgresPool
    let bodies: MessageBodies

    var name: String { "message bodies" }

    func resealBatch(after cursor: MessageID?) async throws -> (resealed: Int, next: MessageID?) {
        let (stale, next) = try await MessageStore.staleBodies(
            after: cursor, cipher: bodies.cipher, limit: Self.batch, on: database)
        let resealed = try stale.map { body in
            (
                body,
                bodies.seal(try bodies.open(plain: body.plain, sealed: body.sealed, of: body.id), of: body.id)
            )
        }
        try await database.transaction { tx in
            for (body, value) in resealed { try await MessageStore.reseal(body, as: value, in: tx) }
        }
        return (resealed.count, next)
    }
}
