public import KindredPostgres
public import Logging

/// A fresh database per test on the shared test cluster (`SharedCluster`), holding the schemas a test names,
/// each migrated like the real one.
public enum TestDatabase {
    /// A schema and its migrations, in order.
    public typealias Schema = (name: String, migrations: [Migration])

    // Swift Testing runs every test at once; each database here holds several connections (its pool, a
    // server's loop connections, a second "instance"), and the shared test cluster serves every test target.
    // Six databases at a time per test process keep the whole suite well inside the cluster's max_connections.
    private static let slots = TestSlots(6)

    /// Runs `body` with a pool on a new database (named after `prefix`) holding `schemas`, migrated; the
    /// database is dropped afterwards, whatever happens.
    public static func with<T>(
        _ prefix: String, schemas: [Schema], logger: Logger, _ body: (PostgresPool) async throws -> T
    ) async throws -> T {
        await slots.acquire()
        defer { slots.release() }
        let name = "\(prefix)_" + String(UInt64.random(in: 0...UInt64.max), radix: 36)
        let url = try SharedCluster.url()
        let databaseURL = try SharedCluster.url(database: name)
        try await administer(url, "CREATE DATABASE \(name)", logger: logger)
        let pool = PostgresPool(
            configuration: try PostgresConfiguration(url: databaseURL, poolSize: 4), logger: logger)
        let result: Result<T, any Error>
        do {
            for schema in schemas {
                _ = try await pool.query(PostgresQuery(unsafeSQL: "CREATE SCHEMA \(schema.name)"))
                _ = try await MigrationRunner(schema: schema.name, migrations: schema.migrations).migrate(
                    pool)
            }
            result = .success(try await body(pool))
        } catch {
            result = .failure(error)
        }
        await pool.close()
        try? await administer(url, "DROP DATABASE \(name)", logger: logger)
        return try result.get()
    }

    /// Runs one statement on the cluster's own test database (CREATE/DROP DATABASE cannot be parameters).
    private static func administer(_ url: String, _ sql: String, logger: Logger) async throws {
        let admin = PostgresPool(
            configuration: try PostgresConfiguration(url: url, poolSize: 1), logger: logger)
        do {
            _ = try await admin.query(PostgresQuery(unsafeSQL: sql))
        } catch {
            await admin.close()
            throw error
        }
        await admin.close()
    }
}
