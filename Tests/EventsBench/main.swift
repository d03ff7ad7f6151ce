// Events per second an EventConsumer handles from a backlog, committing each event alone (batch limit 1, what
// the consumer did before batching) and in batches (the default limit), alternately in one run, since the
// shared machine's fsync rate drifts. Each handled event inserts one row, like a counter's applied-event key.
// Usage: events-bench <database-url> [events=2000] [rounds=3]
import Glibc
import KindredEvents
import KindredAuth
import KindredPostgres
import Logging

let arguments = CommandLine.arguments
guard arguments.count >= 2 else {
    print("usage: events-bench <database-url> [events=2000] [rounds=3]")
    exit(2)
}
let events = arguments.count > 2 ? Int(arguments[2]) ?? 2000 : 2000
let rounds = arguments.count > 3 ? Int(arguments[3]) ?? 3 : 3

let logger = {
    var logger = Logger(label: "events-bench")
    logger.logLevel = .error
    return logger
}()
let pool = PostgresPool(
    configuration: try PostgresConfiguration(url: arguments[1], poolSize: 4), logger: logger)
let schema = "events_bench_" + String(UInt32.random(in: 0...UInt32.max), radix: 16)
try await pool.query(PostgresQuery(unsafeSQL: "CREATE SCHEMA \(schema)"))
try await MigrationRunner(
    schema: schema,
    migrations: [
        EventOutbox.migration(schema: schema, version: 1), EventCursors.migration(schema: schema, version: 2),
        OutboxTraceparent(EventOutbox(schema: schema)).migration(version: 3),
    ]
).migrate(pool)
try await pool.query(
    PostgresQuery(
        unsafeSQL: "CREATE TABLE \(schema).handled (source text, cursor bigint, PRIMARY KEY (source, cursor))"
    ))
let outbox = EventOutbox(schema: schema)
// Payloads are sealed as in the services, so the figures include sealing and opening.
let cipher = try FieldCipher(
    keyring: try DataKeyring("bench:" + Base64.encode([UInt8](repeating: 7, count: 32))))
for start in stride(from: 0, to: events, by: 500) {
    try await pool.transaction { tx in
        for index in start..<min(events, start + 500) {
            try await outbox.append(
                type: "bench", payload: Array("\(index)".utf8), sealedWith: cipher, in: tx)
        }
    }
}
let feed = try EventFeed(
    outbox: outbox, cipher: cipher, pool: pool, logger: logger,
    options: .init(pollInterval: .milliseconds(10)))

/// Seconds one consumer with `batchLimit` takes to handle the whole backlog from cursor 0.
func consumeAll(source: String, batchLimit: Int) async throws -> Double {
    let consumer = EventConsumer(
        source: source, schema: schema, pool: pool, logger: logger, batchLimit: batchLimit,
        fetch: { feed.events(after: $0) },
        handle: { event, tx in
            try await tx.query(
                PostgresQuery(
                    unsafeSQL: "INSERT INTO \(schema).handled VALUES ('\(source)', \(event.cursor))"))
        })
    let started = ContinuousClock.now
    let running = Task { await consumer.run() }
    while true {
        let rows = try await pool.query(
            PostgresQuery(unsafeSQL: "SELECT cursor FROM \(schema).event_cursors WHERE source = '\(source)'"))
        if try rows.count == 1 && rows[0].decode(Int64.self, column: 0) == Int64(events) { break }
        try await Task.sleep(for: .milliseconds(5))
    }
    let elapsed = ContinuousClock.now - started
    running.cancel()
    await running.value
    return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
}

print("| round | batch limit | events | seconds | events/s |")
print("|---|---|---|---|---|")
for round in 1...rounds {
    for batchLimit in round.isMultiple(of: 2) ? [256, 1] : [1, 256] {
        let seconds = try await consumeAll(source: "r\(round)-b\(batchLimit)", batchLimit: batchLimit)
        let rate = Int(Double(events) / seconds)
        print("| \(round) | \(batchLimit) | \(events) | \((seconds * 100).rounded() / 100) | \(rate) |")
    }
}
await feed.close()
try await pool.query(PostgresQuery(unsafeSQL: "DROP SCHEMA \(schema) CASCADE"))
await pool.close()
