/// Applies a schema's pending migrations in one transaction, under an advisory lock keyed by the schema,
/// and records them in `<schema>.schema_migrations`. Needs rights on its own schema only.
public struct MigrationRunner: Sendable {
    /// The schema the migrations belong to; it must already exist.
    public let schema: String
    /// The shipped migrations, in version order.
    public let migrations: [Migration]

    /// Checks the schema name and that versions are positive and unique.
    public init(schema: String, migrations: [Migration]) throws(MigrationError) {
        guard schema.isPlainIdentifier else { throw .invalidSchemaName(schema) }
        let sorted = migrations.sorted { $0.version < $1.version }
        if let bad = sorted.first(where: { $0.version <= 0 }) {
            throw .invalidVersions("version \(bad.version) is not positive")
        }
        for (previous, next) in zip(sorted, sorted.dropFirst()) where previous.version == next.version {
            throw .invalidVersions("version \(next.version) is used twice")
        }
        self.schema = schema
        self.migrations = sorted
    }

    /// Applies what is pending; returns the migrations applied now (empty when up to date).
    /// Concurrent runners for one schema take turns on the lock; the later ones find nothing to do.
    @discardableResult
    public func migrate(_ pool: PostgresPool) async throws -> [Migration] {
        try await pool.transaction { tx in
            _ = try await tx.query("SELECT pg_advisory_xact_lock(\(lockKey))")
            let exists = try await tx.query("SELECT 1 FROM pg_namespace WHERE nspname = \(schema)")
            guard !exists.isEmpty else { throw MigrationError.schemaMissing(schema) }
            try await tx.query(
                PostgresQuery(
                    unsafeSQL: """
                        CREATE TABLE IF NOT EXISTS \(table) (
                            version bigint PRIMARY KEY,
                            name text NOT NULL,
                            checksum text NOT NULL,
                            applied_at timestamptz NOT NULL DEFAULT now())
                        """))
            let recorded = try await tx.query(
                PostgresQuery(unsafeSQL: "SELECT version, name, checksum FROM \(table) ORDER BY version")
            ).decode((Int, String, String).self)
            let pending = try self.pending(recorded: recorded)
            for migration in pending {
                try await tx.runScript(migration.sql)
                var insert = PostgresQuery(
                    unsafeSQL: "INSERT INTO \(table) (version, name, checksum) VALUES (")
                insert.append(bind: migration.version)
                insert.append(unsafeSQL: ", ")
                insert.append(bind: migration.name)
                insert.append(unsafeSQL: ", ")
                insert.append(bind: migration.checksum)
                insert.append(unsafeSQL: ")")
                try await tx.query(insert)
            }
            return pending
        }
    }

    /// Compares the recorded migrations with the shipped ones; any disagreement is an error naming the version.
    func pending(recorded: [(version: Int, name: String, checksum: String)]) throws(MigrationError)
        -> [Migration]
    {
        let shipped = Dictionary(uniqueKeysWithValues: migrations.map { ($0.version, $0) })
        for record in recorded {
            guard let migration = shipped[record.version] else {
                throw .unknownRecordedVersion(version: record.version, name: record.name)
            }
            guard migration.checksum == record.checksum else {
                throw .checksumMismatch(version: record.version, name: migration.name)
            }
        }
        let newest = recorded.last?.version ?? 0
        let applied = Set(recorded.map(\.version))
        if let skipped = migrations.first(where: { $0.version < newest && !applied.contains($0.version) }) {
            throw .skippedVersion(version: skipped.version, newestRecorded: newest)
        }
        return migrations.filter { $0.version > newest }
    }

    /// The schema's table, quoted; the schema name was checked to be a plain identifier.
    private var table: String { "\"\(schema)\".schema_migrations" }

    /// A stable 64-bit key for this schema's advisory lock (FNV-1a of a namespaced name).
    var lockKey: Int64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in "kindred.migrations.\(schema)".utf8 {
            hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3
        }
        return Int64(bitPattern: hash)
    }
}
