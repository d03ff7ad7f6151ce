import Foundation
import Synchronization
import KindredPostgres
import Logging
import Testing

/// Every test that touches the real database runs inside this suite, one at a time: the outage test stops
/// the server, which must not break a neighbour.
@Suite(.serialized) struct DatabaseTests {}

/// The test cluster, from the environment that `Tests/postgres-test-cluster` prepares.
enum TestDatabase {
    struct SetupError: Error, CustomStringConvertible {
        let description: String
    }

    /// `KINDRED_TEST_DATABASE_URL`, or a failing test that says how to get one.
    static func url() throws -> String {
        guard let url = ProcessInfo.processInfo.environment["KINDRED_TEST_DATABASE_URL"], !url.isEmpty else {
            throw SetupError(
                description: """
                    KINDRED_TEST_DATABASE_URL is not set: these tests need a real PostgreSQL. Run \
                    `export KINDRED_TEST_DATABASE_URL=$(Tests/postgres-test-cluster start)` and \
                    `export KINDRED_TEST_PG_CTL=Tests/postgres-test-cluster`, or use Tests/run.
                    """)
        }
        return url
    }

    static func makePool(size: Int = 4, statementTimeout: Duration? = .seconds(30)) throws -> PostgresPool {
        let configuration = try PostgresConfiguration(
            url: url(), poolSize: size, statementTimeout: statementTimeout)
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

    /// Runs the cluster control command (`KINDRED_TEST_PG_CTL`) with `action` (`stop`, `start`).
    static func control(_ action: String) throws {
        guard let command = ProcessInfo.processInfo.environment["KINDRED_TEST_PG_CTL"], !command.isEmpty
        else {
            throw SetupError(
                description: """
                    KINDRED_TEST_PG_CTL is not set: the outage test needs to stop and start the test server. \
                    Set it to Tests/postgres-test-cluster (or a command taking stop/start).
                    """)
        }
        // system() rather than Foundation's Process: Process reaps its child through a run loop that never
        // ran here, and the test hung on a zombie.
        let status = system("\(command) \(action) >/dev/null")
        guard status == 0 else {
            throw SetupError(description: "`\(command) \(action)` exited with status \(status)")
        }
    }
}

/// A value tasks can share.
final class Locked<Value: Sendable>: Sendable {
    private let storage: Mutex<Value>
    init(_ value: Value) { storage = Mutex(value) }
    func withLock<T>(_ body: (inout Value) -> T) -> T { storage.withLock { body(&$0) } }
    var value: Value { storage.withLock { $0 } }
}

/// A counter tasks can share.
final class Counter: Sendable {
    private let storage = Locked(0)
    @discardableResult func increment() -> Int {
        storage.withLock {
            $0 += 1; return $0
        }
    }
    var value: Int { storage.value }
}
