public import KindredAuth
public import KindredEvents
public import KindredPostgres

/// A service's event outbox as `keys rotate-data` walks it (`SealedColumn`): batches of events by row id.
public struct SealedEventOutbox: SealedColumn {
    let outbox: EventOutbox
    let cipher: FieldCipher
    let database: PostgresPool

    /// The payloads of `outbox` in `database`, sealed under `cipher`.
    public init(_ outbox: EventOutbox, cipher: FieldCipher, on database: PostgresPool) {
        self.outbox = outbox
        self.cipher = cipher
        self.database = database
    }

    public var name: String { "\(outbox.schema).\(outbox.name) payloads" }

    public func resealBatch(after cursor: Int64?) async throws -> (resealed: Int, next: Int64?) {
        try await outbox.resealBatch(after: cursor, limit: 500, cipher: cipher, on: database)
    }
}
