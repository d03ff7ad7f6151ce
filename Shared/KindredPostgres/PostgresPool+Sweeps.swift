extension PostgresPool {
    /// Rows a sweep deletes per statement, each statement its own short transaction: a sweep that finds a
    /// backlog (expired tokens after an outage, push messages no provider took, the counters of a flood of failed
    /// sign-ins) never holds its locks or competes with the calls for long (2,000 expired refresh tokens: 2.4 ms
    /// on the seeded database).
    public static let sweepBatch = 2_000

    /// Deletes the rows of `table` (a constant of a storage file, schema-qualified) that match `condition`, at
    /// most `limit` a statement, until a statement deletes fewer; how many in all.
    @discardableResult
    public func deleteInBatches(from table: String, where condition: PostgresQuery, limit: Int = sweepBatch)
        async throws -> Int
    {
        var deleted = 0
        while true {
            // The rows are locked first, so a row a writer changed meanwhile is checked against `condition`
            // again (and one it holds is left for the next sweep), and its ctid is the version deleted: one
            // heap visit a row, where a key would cost an index probe each.
            let batch = try await query(
                """
                DELETE FROM \(unsafeSQL: table) WHERE ctid = ANY (ARRAY(
                    SELECT ctid FROM \(unsafeSQL: table) WHERE \(condition) LIMIT \(limit) FOR UPDATE SKIP LOCKED))
                """
            ).affectedRows
            deleted += batch
            if batch < limit { return deleted }
        }
    }
}
