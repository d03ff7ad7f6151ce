import KindredPostgres
import KindredTestSupport
import Synchronization
import Testing

@testable import KindredEvents

extension EventsTests {
    /// One consuming service run as three replicas, each with its own pool and its own stream of the source
    /// (a `WatchEvents` call to some replica of the producer), on one database: every event is handled once
    /// whatever replica takes it, and one that dies in the middle of a batch loses none.
    @Suite struct ConsumerReplicas {
        /// The replica that was handling event `dieAt` when it died: which one, and its PostgreSQL backend.
        struct Victim: Sendable {
            let replica: Int
            let backend: Int32
        }

        static let events = 20
        static let dieAt: Int64 = 7

        @Test func aReplicaKilledMidBatchLosesNoEventAndNoneIsHandledTwice() async throws {
            try await EventsFixture.with { fixture in
                let handledTable = SchemaTable(schema: fixture.schema, table: "handled")
                let cursors = SchemaTable(schema: fixture.schema, table: "event_cursors")
                // A second handling of an event would fail its insert: the primary key counts them.
                try await fixture.pool.query(
                    "CREATE TABLE \(handledTable) (cursor bigint PRIMARY KEY, replica int NOT NULL)")
                for index in 1...Self.events { try await fixture.append("\(index)") }
                let pools = try (0..<3).map { _ in try EventsFixture.makePool(size: 2) }
                let feeds = try pools.map { try fixture.makeFeed(pool: $0) }
                let (victims, victimFound) = AsyncStream.makeStream(of: Victim.self)
                let claimed = Atomic<Bool>(false)
                let replicas = (0..<3).map { replica in
                    EventConsumer(
                        source: "producer", schema: fixture.schema, pool: pools[replica],
                        logger: EventsFixture.logger, fetch: { feeds[replica].events(after: $0) },
                        handle: { event, tx in
                            try await tx.query(
                                "INSERT INTO \(handledTable) (cursor, replica) VALUES (\(event.cursor), \(replica))"
                            )
                            guard event.cursor == Self.dieAt,
                                !claimed.exchange(true, ordering: .relaxed)
                            else { return }
                            let backend = try await tx.query("SELECT pg_backend_pid()")[0].decode(
                                Int32.self, column: 0)
                            victimFound.yield(Victim(replica: replica, backend: backend))
                            // The process is killed here, inside the batch, holding the cursor's row lock.
                            try await untilCancelled()
                        })
                }
                let running = replicas.map { consumer in Task { await consumer.run() } }

                var found = victims.makeAsyncIterator()
                let victim = try #require(await found.next())
                // What a SIGKILL does to PostgreSQL's side: the connection drops, the transaction aborts.
                try await fixture.pool.query("SELECT pg_terminate_backend(\(victim.backend))")
                running[victim.replica].cancel()
                await running[victim.replica].value
                try await eventually {
                    try await fixture.pool.query("SELECT cursor FROM \(cursors)")[0].decode(
                        Int64.self, column: 0) == Int64(Self.events)
                }
                running.forEach { $0.cancel() }
                for task in running { await task.value }

                let handled = try await fixture.pool.query(
                    "SELECT cursor, replica FROM \(handledTable) ORDER BY cursor"
                ).decode((Int64, Int).self)
                #expect(handled.map(\.0) == Array(1...Int64(Self.events)))
                // The dead replica's half batch rolled back: another replica handled event 7.
                #expect(handled.first { $0.0 == Self.dieAt }?.1 != victim.replica)
                for feed in feeds { await feed.close() }
                for pool in pools { await pool.close() }
            }
        }
    }
}
