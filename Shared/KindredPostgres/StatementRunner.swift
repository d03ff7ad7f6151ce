/// Runs one statement: on the pool (its own implicit transaction) or inside an open transaction, so a
/// storage function serves a lone read and a step of a larger change alike.
public protocol StatementRunner: Sendable {
    @discardableResult
    func query(_ query: PostgresQuery) async throws -> PostgresRows
}

extension PostgresPool: StatementRunner {}
extension PostgresTransaction: StatementRunner {}
