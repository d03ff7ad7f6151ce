import KindredPostgres
import KindredRuntime

/// A `SealedText` column as `kindred-family keys rotate-data` walks it (`SealedColumn`): in batches by the
/// row's key, re-sealing under the current data key the values sealed under an older one and the plaintext
/// from before sealing began. `reseal` writes a value only if the row still holds what was read, so a rotation
/// run twice, or a row changed meanwhile, seals nothing twice and loses no change.
struct SealedTextRotation<Row: Sendable>: SealedColumn {
    static var batch: Int { 500 }

    let name: String
    let database: PostgresPool
    let text: SealedText<Row>
    /// Up to `limit` rows after the given one (nil: from the first), in key order.
    let rows: @Sendable (_ after: Row?, _ limit: Int, PostgresPool) async throws -> [(Row, StoredText)]
    /// Replaces the stored value of a row with the sealed one, if it is still the stored one.
    let reseal:
        @Sendable (Row, _ was: StoredText, _ sealed: [UInt8], PostgresTransaction) async throws -> Void

    func resealBatch(after cursor: Row?) async throws -> (resealed: Int, next: Row?) {
        let batch = try await rows(cursor, Self.batch, database)
        let resealed = try batch.compactMap { row, stored in
            try text.resealed(stored, of: row).map { (row, stored, $0) }
        }
        if !resealed.isEmpty {
            try await database.transaction { tx in
                for (row, stored, sealed) in resealed { try await reseal(row, stored, sealed, tx) }
            }
        }
        return (resealed.count, batch.count < Self.batch ? nil : batch.last?.0)
    }
}
