import Foundation
import KindredPostgres
import KindredTestSupport
import Logging
import Testing

/// Every test that touches the real database runs inside this suite, one at a time, on a cluster of the
/// suite's own: the outage and listener tests stop and restart the server, which must break neither a
/// neighbour nor the other targets' tests on the shared test cluster.
@Suite(.serialized, .privateCluster("postgres-tests")) struct DatabaseTests {}

/// Pools and schemas on the suite's cluster.
enum TestDatabase {
    static func makePool(size: Int = 4, statementTimeout: Duration? = .seconds(30)) throws -> PostgresPool {
        let configuration = try PostgresConfiguration(
            url: PrivateCluster.current.url, poolSize: size, statementTimeout: statementTimeout)
        return PostgresPool(configuration: configuration, logger: logger)
    }

    static var logger: Logger {
        var logger = Logger(label: "kindred-postgres-tests")
        logger.logLevel = .warning
        return logger
    }

    @discardableResult
    /// Runs `body` with a fresh pool, closing it afterwards whatever happens.
    static func withPool<T>(
        size: Int = 4, _ body: (PostgresPool) async throws -> T
    ) async throws -> T {
        let pool = try makePool(size: size)
        do {
            let value = try await body(pool)
            await pool.close()
            return value
        } catch {
            await pool.close()
            throw error
        }
    }

    /// Runs `body` with a fresh schema of its own, dropped afterwards.
    static func withSchema<T>(
        _ pool: PostgresPool, _ body: (String) async throws -> T
    ) async throws -> T {
        let schema = "test_" + String(UInt32.random(in: 0...UInt32.max), radix: 16)
        _ = try await pool.query(PostgresQuery(unsafeSQL: "CREATE SCHEMA \(schema)"))
        do {
            let value = try await body(schema)
            _ = try await pool.query(PostgresQuery(unsafeSQL: "DROP SCHEMA \(schema) CASCADE"))
            return value
        } catch {
            _ = try? await pool.query(PostgresQuery(unsafeSQL: "DROP SCHEMA \(schema) CASCADE"))
            throw error
        }
    }
}
