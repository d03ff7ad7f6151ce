/// Runs one statement: on the pool (its own implicit transaction) or inside an open transaction, so a
/// storage function serves a lone read and a step of a larger change alike.
public protocol StatementRunner: Sendable {
    @discardableResult
    func query(_ query: PostgresQuery) async throws -> PostgresRows
}

extension PostgresPool: StatementRunner {}
extension PostgresTransaction: StatementRunner {}

extension StatementRunner {
    /// Runs `query`, which its caller declares a pure read: it changes nothing, not even through a function
    /// it calls (no `nextval`, no advisory lock, no function that writes), and takes no row lock. On an event
    /// loop's connection it may then share one implicit transaction with other callers' reads, and run again
    /// when one of them fails. Anything else goes through `query(_:)` and keeps a transaction of its own.
    @discardableResult
    public func pureRead(_ query: PostgresQuery) async throws -> PostgresRows {
        var read = query
        read.isPureRead = true
        return try await self.query(read)
    }
}
