import KindredHandlers
import KindredPostgres

/// `kindred-social keys rotate-data`: seals every message body under the current data key, batch by batch
/// (one transaction each), while the service serves. Bodies under an older key are opened with it, so that key
/// must stay in the keyring until this has run; plaintext bodies from before sealing began are sealed too.
/// Running it again, or in two places at once, seals nothing twice.
struct MessageBodyRotation: Sendable {
    static let batch = 500

    let database: PostgresPool
    let bodies: MessageBodies

    /// Runs to the end; how many bodies it sealed.
    func run() async throws -> Int {
        var after: MessageID?
        var sealed = 0
        repeat {
            let (stale, next) = try await MessageStore.staleBodies(
                after: after, currentKey: bodies.cipher.keyring.current.id, limit: Self.batch, on: database)
            let resealed = try stale.map { body in
                (
                    body,
                    bodies.seal(
                        try bodies.open(plain: body.plain, sealed: body.sealed, of: body.id), of: body.id)
                )
            }
            try await database.transaction { tx in
                for (body, value) in resealed { try await MessageStore.reseal(body, as: value, in: tx) }
            }
            sealed += resealed.count
            after = next
        } while after != nil
        return sealed
    }
}
