/// Statements of a transaction sent together: one round trip for reads that do not depend on each other.
extension PostgresTransaction {
    /// Runs `queries` in order and answers each one's rows, in order. On a loop's connection they go out in one
    /// pipeline segment, one round trip instead of one each (on a connection thread, one after another). Each
    /// is a statement of its own, with its own snapshot, as if run one by one; if one fails, the ones after it
    /// do not run and this throws its error (the transaction is then aborted, as after any failed statement).
    public func query(_ queries: [PostgresQuery]) async throws -> [PostgresRows] {
        guard let last = queries.last else { return [] }
        guard case .loop(let transaction) = channel else {
            var answers: [PostgresRows] = []
            for query in queries { answers.append(try await self.query(query)) }
            return answers
        }
        let earlier = queries.dropLast().map { DeferredStatement(query: $0, answer: DeferredAnswer { _ in }) }
        let lastRows = try await transaction.query(last, after: earlier)
        // The segment answered in order and succeeded, so every earlier statement's rows were kept.
        return try earlier.map { statement in
            guard let rows = statement.answer?.kept else {
                throw PostgresError.connectionLost("a pipelined statement's answer is missing")
            }
            return rows
        } + [lastRows]
    }
}
