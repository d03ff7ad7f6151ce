import Foundation
import KindredMail
import KindredPostgres
import KindredTestSupport
import Logging
import Testing

/// Every mail test that needs PostgreSQL lives in an extension of this suite, which runs against a cluster
/// of its own, not the shared test cluster: that one's outage test stops and restarts its server while suites
/// of other targets run in parallel.
@Suite(.privateCluster("mail-tests")) struct MailDatabaseTests {}

var quietLogger: Logger {
    var logger = Logger(label: "kindred-mail-tests")
    logger.logLevel = .critical
    return logger
}

/// A pool on the suite's cluster.
func makePool(size: Int = 2) throws -> PostgresPool {
    PostgresPool(
        configuration: try PostgresConfiguration(url: PrivateCluster.current.url, poolSize: size),
        logger: quietLogger)
}

/// Runs `body` with a pool and an outbox migrated into a fresh schema, all dropped afterwards.
func withOutbox<T>(_ body: (PostgresPool, MailOutbox) async throws -> T) async throws -> T {
    let pool = try makePool()
    let schema = "mail_" + String(UInt32.random(in: 0...UInt32.max), radix: 16)
    let outbox = MailOutbox(schema: schema, cipher: TestDataKeys.cipher)
    do {
        try await pool.query(PostgresQuery(unsafeSQL: "CREATE SCHEMA \(schema)"))
        try await MigrationRunner(
            schema: schema,
            migrations: [
                MailOutbox.migration(schema: schema, version: 1),
                MailOutbox.sealingMigration(schema: schema, version: 2),
            ]
        ).migrate(pool)
        let value = try await body(pool, outbox)
        try await pool.query(PostgresQuery(unsafeSQL: "DROP SCHEMA \(schema) CASCADE"))
        await pool.close()
        return value
    } catch {
        _ = try? await pool.query(PostgresQuery(unsafeSQL: "DROP SCHEMA \(schema) CASCADE"))
        await pool.close()
        throw error
    }
}
