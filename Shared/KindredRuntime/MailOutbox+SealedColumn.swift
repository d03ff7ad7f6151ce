public import KindredMail
public import KindredPostgres

/// A service's mail outbox as `keys rotate-data` walks it (`SealedColumn`): batches of unsent mails by row id.
public struct SealedMailOutbox: SealedColumn {
    let outbox: MailOutbox
    let database: PostgresPool

    /// The outbox `outbox` in `database`.
    public init(_ outbox: MailOutbox, on database: PostgresPool) {
        self.outbox = outbox
        self.database = database
    }

    public var name: String { "\(outbox.schema) mail outbox" }

    public func resealBatch(after cursor: Int?) async throws -> (resealed: Int, next: Int?) {
        try await outbox.resealBatch(after: cursor, limit: 500, on: database)
    }
}
