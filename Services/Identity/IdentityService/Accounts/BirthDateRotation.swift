import KindredHandlers
import KindredPostgres
import KindredRuntime

/// A column of dates of birth as `kindred-identity keys rotate-data` re-seals it (`SealedColumn`): in batches in
/// key order, opening a date under an older key with that key, and sealing plaintext dates from before sealing
/// began. One walk for both columns; each is a `Key`, how to read a batch, where a date belongs, and how to
/// write it back.
struct BirthDateRotation<Key: Sendable>: SealedColumn {
    typealias Batch = (rows: [(key: Key, stored: StoredBirthDate)], next: Key?)

    let name: String
    let database: PostgresPool
    let dates: BirthDates
    let place: @Sendable (Key) -> BirthDates.Place
    let read: @Sendable (_ after: Key?, _ limit: Int, _ database: PostgresPool) async throws -> Batch
    let write:
        @Sendable (_ key: Key, _ stored: StoredBirthDate, _ sealed: [UInt8], _ tx: PostgresTransaction)
            async throws -> Void

    var batchSize: Int { 500 }

    func resealBatch(after cursor: Key?) async throws -> (resealed: Int, next: Key?) {
        let (rows, next) = try await read(cursor, batchSize, database)
        let resealed = try rows.filter { !dates.cipher.isCurrent($0.stored.sealed) }.map { row in
            (row, dates.seal(try dates.open(row.stored, at: place(row.key)), at: place(row.key)))
        }
        try await database.transaction { tx in
            for (row, sealed) in resealed { try await write(row.key, row.stored, sealed, tx) }
        }
        return (resealed.count, next)
    }
}

extension BirthDateRotation where Key == UserID {
    /// `identity.accounts.date_of_birth`.
    static func accounts(database: PostgresPool, dates: BirthDates) -> Self {
        Self(
            name: "account dates of birth", database: database, dates: dates, place: { .account($0) },
            read: { try await AccountStore.storedBirthDates(after: $0, limit: $1, on: $2) },
            write: { try await AccountStore.resealBirthDate(of: $0, from: $1, to: $2, in: $3) })
    }
}

extension BirthDateRotation where Key == [UInt8] {
    /// `identity.email_tokens.new_date_of_birth`: the dates requested changes will set once confirmed.
    static func emailTokens(database: PostgresPool, dates: BirthDates) -> Self {
        Self(
            name: "requested dates of birth", database: database, dates: dates,
            place: { .emailToken(tokenHash: $0) },
            read: { try await EmailTokenStore.storedNewBirthDates(after: $0, limit: $1, on: $2) },
            write: { try await EmailTokenStore.resealNewBirthDate(of: $0, from: $1, to: $2, in: $3) })
    }
}
