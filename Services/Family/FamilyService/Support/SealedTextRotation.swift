import KindredPostgres
import KindredRuntime

/// A value sealed per row that `keys rotate-data` can re-seal: one text (`SealedText`) or several together
/// (`SealedTexts`).
protocol RowSeal: Sendable {
    associatedtype Row: Sendable
    /// The row's value as stored: plaintext from before sealing, or sealed.
    associatedtype Stored: Sendable
    /// `stored` sealed under the current key, or nil when it already is.
    func resealed(_ stored: Stored, of row: Row) throws -> [UInt8]?
}

extension SealedText: RowSeal {}
extension SealedTexts: RowSeal {}

/// A sealed column as `kindred-family keys rotate-data` walks it (`SealedColumn`): in batches by the
/// row's key, re-sealing under the current data key the values sealed under an older one and the plaintext
/// from before sealing began. `reseal` writes a value only if the row still holds what was read, so a rotation
/// run twice, or a row changed meanwhile, seals nothing twice and loses no change.
struct SealedTextRotation<Seal: RowSeal>: SealedColumn {
    static var batch: Int { 500 }

    let name: String
    let database: PostgresPool
    let text: Seal
    /// Up to `limit` rows after the given one (nil: from the first), in key order.
    let rows:
        @Sendable (_ after: Seal.Row?, _ limit: Int, PostgresPool) async throws -> [(Seal.Row, Seal.Stored)]
    /// Replaces the stored value of a row with the sealed one, if it is still the stored one.
    let reseal:
        @Sendable (Seal.Row, _ was: Seal.Stored, _ sealed: [UInt8], PostgresTransaction) async throws -> Void

    func resealBatch(after cursor: Seal.Row?) async throws -> (resealed: Int, next: Seal.Row?) {
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
