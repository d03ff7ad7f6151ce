public import KindredPostgres

/// What a stolen dump of one schema shows: `pg_dump --data-only` of `schema` in the database `pool` is on, as
/// text, for tests that a sealed column's plaintext is nowhere in it.
public func dataDump(of schema: String, on pool: PostgresPool) async throws -> String {
    let name = try await pool.query("SELECT current_database()")[0].decode(String.self)
    let (status, output) = try Subprocess.run(
        [
            "/usr/bin/pg_dump", "--data-only", "--schema=\(schema)",
            "--dbname=\(try SharedCluster.url(database: name))",
        ])
    guard status == 0 else { throw TestFailure("pg_dump failed: \(output)") }
    return output
}
