import Foundation
import KindredAuth
import KindredPostgres
import KindredTestSupport
import Logging
import Testing

@testable import KindredEvents

/// A fresh schema with an outbox and a cursor table, on the suite's cluster.
struct EventsFixture {
    let pool: PostgresPool
    let schema: String
    let outbox: EventOutbox

    static var logger: Logger {
        var logger = Logger(label: "kindred-events-tests")
        logger.logLevel = .error
        return logger
    }

    static func makePool(size: Int = 4) throws -> PostgresPool {
        PostgresPool(
            configuration: try PostgresConfiguration(url: PrivateCluster.current.url, poolSize: size),
            logger: logger)
    }

    /// Runs `body` with a new schema, migrated, and a pool that is closed afterwards.
    static func with<T>(_ body: (EventsFixture) async throws -> T) async throws -> T {
        let pool = try makePool()
        do {
            let schema = "events_" + String(UInt32.random(in: 0...UInt32.max), radix: 16)
            try await pool.query(PostgresQuery(unsafeSQL: "CREATE SCHEMA \(schema)"))
            try await MigrationRunner(
                schema: schema,
                migrations: [
                    EventOutbox.migration(schema: schema, version: 1),
                    EventCursors.migration(schema: schema, version: 2),
                    OutboxTraceparent(EventOutbox(schema: schema)).migration(version: 3),
                ]
            ).migrate(pool)
            let value = try await body(
                EventsFixture(pool: pool, schema: schema, outbox: EventOutbox(schema: schema)))
            await pool.close()
            return value
        } catch {
            await pool.close()
            throw error
        }
    }

    /// A feed that polls every 10 ms unless told otherwise, so the tests wait little.
    func makeFeed(
        pool: PostgresPool? = nil, pollInterval: Duration = .milliseconds(10),
        burstInterval: Duration = .milliseconds(10)
    ) throws -> EventFeed {
        try EventFeed(
            outbox: outbox, cipher: TestDataKeys.cipher, pool: pool ?? self.pool, logger: Self.logger,
            options: .init(pollInterval: pollInterval, burstInterval: burstInterval))
    }

    /// Whether the event of `type` has a cursor yet.
    func isNumbered(_ type: String) async throws -> Bool {
        try await pool.query("SELECT cursor IS NOT NULL FROM \(outbox.table) WHERE type = \(type)")
            .decode(Bool.self).first ?? false
    }

    /// One sequencer transaction numbering up to `limit` waiting events, on `pool` (another instance's) or the
    /// fixture's.
    func sequence(limit: Int, on pool: PostgresPool? = nil) async throws -> SequencedEvents {
        try await outbox.sequence(pool ?? self.pool, limit: limit, opening: TestDataKeys.cipher)
    }

    /// Numbers every waiting event.
    func sequenceAll() async throws {
        while try await sequence(limit: 100).count > 0 {}
    }

    /// Appends one event of `type` (its payload is the type's bytes) in a transaction of its own.
    func append(_ type: String) async throws {
        try await pool.transaction { tx in
            try await outbox.append(
                type: type, payload: Array(type.utf8), sealedWith: TestDataKeys.cipher, in: tx)
        }
    }

    /// Appends, retrying while PostgreSQL comes back from a restart.
    func appendAfterRestart(_ type: String) async throws {
        try await eventually("PostgreSQL takes \(type) after its restart") {
            do {
                try await append(type)
                return true
            } catch let error as PostgresError where error.isConnectionFailure {
                return false
            }
        }
    }

    /// Restarts the suite's cluster (fast shutdown: every connection breaks).
    func restartPostgres() async throws {
        try await PrivateCluster.current.restart()
    }
}

/// The first `count` elements of `sequence`, or a failure after `limit`: the limit guards against a hang and
/// is never what a test waits for.
func take<Events: AsyncSequence & Sendable>(
    _ count: Int, from sequence: Events, within limit: Duration = .seconds(15)
) async throws -> [Events.Element] where Events.Element: Sendable {
    try await withThrowingTaskGroup(of: [Events.Element].self) { group in
        group.addTask {
            var taken: [Events.Element] = []
            for try await element in sequence {
                taken.append(element)
                if taken.count == count { break }
            }
            return taken
        }
        group.addTask {
            try await Task.sleep(for: limit)
            throw TestFailure("fewer than \(count) events within \(limit)")
        }
        defer { group.cancelAll() }
        return try await group.next() ?? []
    }
}
