import Foundation
import KindredMail
import KindredPostgres
import Logging
import Testing

/// The mail tests' PostgreSQL: a cluster of their own (Tests/postgres-test-cluster in a private directory on
/// a free port), started once around the suite and destroyed after it. Not the shared test cluster, whose
/// outage test stops and restarts its server while suites of other targets run in parallel.
struct MailCluster: SuiteTrait, TestScoping {
    @TaskLocal static var url: String?

    var isRecursive: Bool { false }

    func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .deletingLastPathComponent()
            .deletingLastPathComponent()
        let script = repository.appendingPathComponent("Tests/postgres-test-cluster").path
        let directory = "/tmp/kindred-mail-tests-\(getpid())"
        let environment = "KINDRED_TEST_PG_DIR=\(directory) KINDRED_TEST_PG_PORT=\(try freePort())"
        defer { _ = system("\(environment) \(script) destroy >/dev/null 2>&1") }
        guard system("\(environment) \(script) start >\(directory).url 2>\(directory).log") == 0 else {
            let log = (try? String(contentsOfFile: directory + ".log", encoding: .utf8)) ?? ""
            throw TestFailure("\(script) start failed: \(log)")
        }
        let url = try String(contentsOfFile: directory + ".url", encoding: .utf8)
            .trimmingCharacters(in: .whitespacesAndNewlines)
        try? FileManager.default.removeItem(atPath: directory + ".url")
        try? FileManager.default.removeItem(atPath: directory + ".log")
        try await Self.$url.withValue(url, operation: function)
    }
}

extension Trait where Self == MailCluster {
    /// Runs the suite against a PostgreSQL cluster of its own.
    static var mailCluster: MailCluster { MailCluster() }
}

/// Every mail test that needs PostgreSQL lives in an extension of this suite.
@Suite(.mailCluster) struct MailDatabaseTests {}

struct TestFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

var quietLogger: Logger {
    var logger = Logger(label: "kindred-mail-tests")
    logger.logLevel = .critical
    return logger
}

/// A pool on the suite's cluster.
func makePool(size: Int = 2) throws -> PostgresPool {
    guard let url = MailCluster.url else { throw TestFailure("not inside MailDatabaseTests") }
    return PostgresPool(
        configuration: try PostgresConfiguration(url: url, poolSize: size), logger: quietLogger)
}

/// Runs `body` with a pool and an outbox migrated into a fresh schema, all dropped afterwards.
func withOutbox<T>(_ body: (PostgresPool, MailOutbox) async throws -> T) async throws -> T {
    let pool = try makePool()
    let schema = "mail_" + String(UInt32.random(in: 0...UInt32.max), radix: 16)
    let outbox = MailOutbox(schema: schema)
    do {
        try await pool.query(PostgresQuery(unsafeSQL: "CREATE SCHEMA \(schema)"))
        try await MigrationRunner(schema: schema, migrations: [outbox.migration(version: 1)]).migrate(pool)
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

/// A loopback port the kernel just handed out.
func freePort() throws -> Int {
    let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    defer { close(socket) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let ok = withUnsafeMutablePointer(to: &address) { pointer in
        pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { address in
            bind(socket, address, length) == 0 && getsockname(socket, address, &length) == 0
        }
    }
    guard ok else { throw TestFailure("cannot find a free port: errno \(errno)") }
    return Int(UInt16(bigEndian: address.sin_port))
}

/// A fresh empty directory under /tmp.
func temporaryDirectory() throws -> String {
    let path = "/tmp/kindred-mail-test-\(UUID().uuidString)"
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return path
}
