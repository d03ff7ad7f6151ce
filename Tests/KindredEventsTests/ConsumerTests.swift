import KindredPostgres
import KindredTestSupport
import Testing

@testable import KindredEvents

extension EventsTests {
    @Suite struct Consumer {
        struct Refused: Error {}

        /// A consumer of `feed` storing its cursor in the fixture's schema; each handled event is inserted
        /// into `<schema>.handled` (a duplicate would fail) and its cursor appended to `delivered`.
        func makeConsumer(
            _ fixture: EventsFixture, feed: EventFeed, delivered: Locked<[Int64]>,
            fail: @escaping @Sendable (OutboxEvent) -> Bool = { _ in false }
        ) -> EventConsumer<EventStream> {
            EventConsumer(
                source: "producer", schema: fixture.schema, pool: fixture.pool, logger: EventsFixture.logger,
                fetch: { feed.events(after: $0) },
                handle: { event, tx in
                    delivered.withLock { $0.append(event.cursor) }
                    try await tx.query(
                        "INSERT INTO \(table(fixture, "handled")) (cursor) VALUES (\(event.cursor))")
                    if fail(event) { throw Refused() }
                })
        }

        func table(_ fixture: EventsFixture, _ name: String) -> SchemaTable {
            SchemaTable(schema: fixture.schema, table: name)
        }

        func handled(_ fixture: EventsFixture) async throws -> [Int64] {
            try await fixture.pool.query("SELECT cursor FROM \(table(fixture, "handled")) ORDER BY cursor")
                .decode(Int64.self)
        }

        func storedCursor(_ fixture: EventsFixture) async throws -> Int64? {
            try await fixture.pool.query("SELECT cursor FROM \(table(fixture, "event_cursors"))")
                .decode(Int64.self).first
        }

        func withConsumerFixture(_ body: (EventsFixture, EventFeed) async throws -> Void) async throws {
            try await EventsFixture.with { fixture in
                try await fixture.pool.query(
                    "CREATE TABLE \(table(fixture, "handled")) (cursor bigint PRIMARY KEY)")
                let feed = try fixture.makeFeed()
                try await body(fixture, feed)
                await feed.close()
            }
        }

        @Test func aConsumerStoresItsCursorAndResumesWithoutRedeliveringWhatItCommitted() async throws {
            try await withConsumerFixture { fixture, feed in
                for type in ["1", "2", "3"] { try await fixture.append(type) }
                let first = Locked<[Int64]>([])
                let running = Task { await makeConsumer(fixture, feed: feed, delivered: first).run() }
                try await eventually { try await storedCursor(fixture) == 3 }
                running.cancel()
                await running.value
                #expect(first.value == [1, 2, 3])

                for type in ["4", "5"] { try await fixture.append(type) }
                let second = Locked<[Int64]>([])
                let resumed = Task { await makeConsumer(fixture, feed: feed, delivered: second).run() }
                try await eventually { try await storedCursor(fixture) == 5 }
                resumed.cancel()
                await resumed.value
                #expect(second.value == [4, 5])
                #expect(try await handled(fixture) == [1, 2, 3, 4, 5])
            }
        }

        @Test func anEventWhoseHandlerThrewIsDeliveredAgain() async throws {
            try await withConsumerFixture { fixture, feed in
                for type in ["1", "2", "3"] { try await fixture.append(type) }
                let delivered = Locked<[Int64]>([])
                let failures = Locked(1)
                let consumer = makeConsumer(fixture, feed: feed, delivered: delivered) { event in
                    event.cursor == 2
                        && failures.withLock { remaining in
                            defer { remaining -= 1 }
                            return remaining > 0
                        }
                }
                let running = Task { await consumer.run() }
                try await eventually { try await storedCursor(fixture) == 3 }
                running.cancel()
                await running.value
                // Event 1 too is delivered again when it shared the failed batch with 2.
                #expect(delivered.value.filter { $0 == 2 }.count == 2)
                #expect(try await handled(fixture) == [1, 2, 3])
            }
        }

        @Test func aBrokenStreamIsReopenedAfterTheStoredCursor() async throws {
            try await withConsumerFixture { fixture, feed in
                for type in ["1", "2", "3"] { try await fixture.append(type) }
                let opened = Locked<[Int64]>([])
                let delivered = Locked<[Int64]>([])
                let consumer = EventConsumer(
                    source: "producer", schema: fixture.schema, pool: fixture.pool,
                    logger: EventsFixture.logger,
                    fetch: { after in
                        let isFirst = opened.withLock {
                            $0.append(after)
                            return $0.count == 1
                        }
                        return BreakingStream(
                            events: feed.events(after: after), breakAfter: isFirst ? 1 : nil)
                    },
                    handle: { event, _ in delivered.withLock { $0.append(event.cursor) } })
                let running = Task { await consumer.run() }
                try await eventually { try await storedCursor(fixture) == 3 }
                running.cancel()
                await running.value
                #expect(opened.value == [0, 1])
                #expect(delivered.value == [1, 2, 3])
            }
        }

        @Test func aConsumerCarriesOnAfterAPostgresRestart() async throws {
            try await withConsumerFixture { fixture, feed in
                try await fixture.append("before")
                let delivered = Locked<[Int64]>([])
                let running = Task { await makeConsumer(fixture, feed: feed, delivered: delivered).run() }
                try await eventually { try await storedCursor(fixture) == 1 }
                try await fixture.restartPostgres()
                try await fixture.appendAfterRestart("after")
                try await eventually { try await storedCursor(fixture) == 2 }
                running.cancel()
                await running.value
                #expect(delivered.value == [1, 2])
                #expect(try await handled(fixture) == [1, 2])
            }
        }

        @Test func twoInstancesConsumingOneSourceHandleEachEventOnce() async throws {
            try await withConsumerFixture { fixture, feed in
                let delivered = Locked<[Int64]>([])
                let running = (0..<2).map { _ in
                    Task { await makeConsumer(fixture, feed: feed, delivered: delivered).run() }
                }
                for index in 1...20 { try await fixture.append("\(index)") }
                try await eventually { try await storedCursor(fixture) == 20 }
                running.forEach { $0.cancel() }
                for task in running { await task.value }
                #expect(delivered.value.sorted() == Array(1...20))
                #expect(try await handled(fixture) == Array(1...20))
            }
        }
    }
}

/// An event stream that breaks (throws) after `breakAfter` events, like a connection to the source dropping.
struct BreakingStream: AsyncSequence, Sendable {
    struct Broke: Error {}

    let events: EventStream
    let breakAfter: Int?

    func makeAsyncIterator() -> Iterator {
        Iterator(events: events.makeAsyncIterator(), remaining: breakAfter)
    }

    struct Iterator: AsyncIteratorProtocol {
        var events: EventStream.AsyncIterator
        var remaining: Int?

        mutating func next() async throws -> OutboxEvent? {
            if remaining == 0 { throw Broke() }
            remaining? -= 1
            return try await events.next()
        }
    }
}
