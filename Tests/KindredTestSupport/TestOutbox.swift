public import KindredEvents
public import KindredPostgres

extension EventOutbox {
    /// The events appended to this outbox, in the order their transactions wrote them (only those of `type`,
    /// when given): each type and payload, opened with the tests' data keys (`TestDataKeys.cipher`).
    public func appended(type: String? = nil, on pool: PostgresPool) async throws
        -> [(type: String, payload: [UInt8])]
    {
        let rows = try await pool.query(
            """
            SELECT type, payload FROM \(unsafeSQL: "\(schema).\(name)")
            WHERE \(type)::text IS NULL OR type = \(type) ORDER BY id
            """
        ).decode((String, [UInt8]).self)
        return try rows.map { ($0, try open($1, type: $0, with: TestDataKeys.cipher)) }
    }
}
