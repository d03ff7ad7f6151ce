import KindredAuth
public import KindredPostgres

/// What a stolen dump of one schema shows: `pg_dump --data-only` of `schema` in the database `pool` is on, as
/// text, for tests that a sealed column's plaintext is nowhere in it.
public func dataDump(of schema: String, on pool: PostgresPool) async throws -> String {
    let name = try await pool.query("SELECT current_database()")[0].decode(String.self)
    let (status, output) = try await Subprocess.run(
        [
            "/usr/bin/pg_dump", "--data-only", "--schema=\(schema)",
            "--dbname=\(try SharedCluster.url(database: name))",
        ])
    guard status == 0 else { throw TestFailure("pg_dump failed: \(output)") }
    return output
}

/// The `markers` that `dump` shows readably: as they are, as hex (how a dump prints a bytea), or in base64 at any
/// of the three alignments a value can start at inside a longer base64 text. Empty when none is readable.
public func readableMarkers(_ markers: [String], in dump: String) -> [String] {
    markers.filter { isReadable($0, in: dump) }
}

/// The lines of `dump` that show one of `markers` readably (as `readableMarkers` looks for them): what a failing
/// check prints, so that the table and row that leaked are in the test's log.
public func linesShowing(_ markers: [String], in dump: String) -> [String] {
    dump.split(separator: "\n").map(String.init).filter { line in
        markers.contains { isReadable($0, in: line) }
    }
}

private func isReadable(_ marker: String, in dump: String) -> Bool {
    let bytes = Array(marker.utf8)
    let hex = bytes.map {
        String($0, radix: 16).count == 1 ? "0\(String($0, radix: 16))" : String($0, radix: 16)
    }
    .joined()
    // Whatever precedes the marker in a value changes only the first and last base64 characters of its part.
    let base64 = (0..<3).map { offset in
        String(Base64.encode([UInt8](repeating: 0, count: offset) + bytes).dropFirst(4).dropLast(4))
    }
    let text = dump.lowercased()
    return text.contains(marker.lowercased()) || text.contains(hex)
        || base64.contains { !$0.isEmpty && dump.contains($0) }
}
